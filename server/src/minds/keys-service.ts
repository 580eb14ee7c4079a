import { type CreatedMindKey, type CreateMindKeyBody, ERROR_MESSAGES, type MindKeySummary } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { newId, newToken, sha256Hex } from '../lib/secrets.js';
import { countLiveKeys, insertKey, listKeys, revokeKey } from './keys-store.js';
import { findMind, lockUser } from './store.js';

/** Keys a mind may have that are not revoked: GET /minds/:id/keys stays one bounded answer. */
export const MAX_KEYS_PER_MIND = 100;

/** The longest a key of source `console` lives; the console makes a new one before it ends. */
export const CONSOLE_KEY_LIFETIME_MS = 60 * 60 * 1000;

/** A new Mind Key: the secret shown once, the hash stored, and the start a person recognises it by. */
export function newMindKey() {
  const secret = newToken('mk_');
  return { secret, hash: sha256Hex(secret), prefix: secret.slice(0, 8) };
}

/** The owner's keys of a mind: made, listed, revoked (JWT routes; another user's mind is not revealed). */
export class MindKeysService {
  constructor(private readonly ctx: AppContext) {}

  async create(userId: string, mindId: string, body: CreateMindKeyBody): Promise<CreatedMindKey> {
    const now = this.ctx.clock.now();
    const source = body.source ?? 'api';
    const asked = body.expires_at === undefined ? null : Date.parse(body.expires_at);
    if (asked !== null && asked <= now.getTime()) throw ApiError.invalidField('body.expires_at', 'must be in the future');
    // A console key stands in for the person's session: a lost browser tab must not leave a lasting key.
    const consoleLimit = now.getTime() + CONSOLE_KEY_LIFETIME_MS;
    const expiresMs = source === 'console' ? Math.min(asked ?? consoleLimit, consoleLimit) : asked;
    const expiresAt = expiresMs === null ? null : new Date(expiresMs).toISOString();
    await this.ownedMind(userId, mindId);
    const key = newMindKey();
    const created = {
      id: newId(),
      label: body.label,
      scope: body.scope ?? 'full',
      prefix: key.prefix,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    };
    await this.ctx.db.transaction(async (trx) => {
      // Serialises the owner's key makers, so the cap holds; the user's row, not the mind's, which
      // the mind's writers hold while they run (an import for seconds).
      await lockUser(trx, this.ctx.dialect, userId);
      if ((await countLiveKeys(trx, mindId)) >= MAX_KEYS_PER_MIND) {
        throw ApiError.conflict('mind_keys_limit_reached', ERROR_MESSAGES.mindKeysLimitReached(MAX_KEYS_PER_MIND));
      }
      await insertKey(trx, { ...created, mind_id: mindId, key_hash: key.hash, source, client_name: null });
    });
    return { ...created, mind_key: key.secret };
  }

  async list(userId: string, mindId: string): Promise<MindKeySummary[]> {
    await this.ownedMind(userId, mindId);
    return listKeys(this.ctx.db, mindId);
  }

  /** Refused from the next request on: the key lookup reads the row every time (no cache). */
  async revoke(userId: string, mindId: string, keyId: string): Promise<void> {
    await this.ownedMind(userId, mindId);
    if (!(await revokeKey(this.ctx.db, mindId, keyId, this.ctx.clock.now().toISOString()))) throw ApiError.notFound('Key');
  }

  private async ownedMind(userId: string, mindId: string): Promise<void> {
    const mind = await findMind(this.ctx.db, mindId);
    if (!mind || mind.userId !== userId) throw ApiError.notFound('Mind');
  }
}
