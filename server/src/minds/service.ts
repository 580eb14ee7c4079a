import { type CreateMindBody, type CreatedMind, ERROR_MESSAGES, type MindSummary } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { decodeCreatedCursor, encodeCreatedCursor, itemsWithinBytes } from '../http/cursor.js';
import { newId } from '../lib/secrets.js';
import { newMindKey } from './keys-service.js';
import { insertKey } from './keys-store.js';
import { countMindsOfUser, findMind, insertMind, insertMindDeletion, listMindsOfUser, lockUser, markMindRowDeleted } from './store.js';

/** How long DELETE /minds/:id waits for the mind's writers to free its row before leaving that to the purge. */
const ROW_WAIT_MS = 100;
/** GET /minds' default page (the most `limit` takes). */
const MINDS_PAGE = 100;

export class MindsService {
  /** `deleted`: called once a deletion committed (wakes the purge). */
  constructor(
    private readonly ctx: AppContext,
    private readonly deleted: () => void = () => undefined,
  ) {}

  /** A user has at most MIND_MAX_MINDS_PER_USER minds (default 100). */
  async create(userId: string, body: CreateMindBody): Promise<CreatedMind> {
    const mindKey = newMindKey();
    const mind = {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      created_at: this.ctx.clock.now().toISOString(),
    };
    const max = this.ctx.config.maxMindsPerUser;
    await this.ctx.db.transaction(async (trx) => {
      await lockUser(trx, this.ctx.dialect, userId);
      if ((await countMindsOfUser(trx, userId)) >= max) {
        throw ApiError.conflict('minds_limit_reached', ERROR_MESSAGES.mindsLimitReached(max));
      }
      await insertMind(trx, mind, userId, mindKey.hash);
      // The mind's first key, revocable like any other.
      await insertKey(trx, {
        id: newId(),
        mind_id: mind.id,
        key_hash: mindKey.hash,
        label: 'original',
        scope: 'full',
        prefix: mindKey.prefix,
        source: 'api',
        client_name: null,
        created_at: mind.created_at,
        expires_at: null,
      });
    });
    return { ...mind, mind_key: mindKey.secret };
  }

  /** One page in creation order, ending early at the page's byte bound (a description may hold 20,000 characters). */
  async list(
    userId: string,
    query: { limit?: number; cursor?: string } = {},
  ): Promise<{ minds: MindSummary[]; next_cursor: string | null }> {
    const after = query.cursor === undefined ? undefined : decodeCreatedCursor(query.cursor, 'GET /minds');
    const page = await listMindsOfUser(this.ctx.db, userId, { limit: query.limit ?? MINDS_PAGE, after });
    const fit = itemsWithinBytes(page.minds, this.ctx.config.pageMaxBytes);
    const minds = page.minds.slice(0, fit);
    const last = minds[fit - 1];
    const more = page.more || fit < page.minds.length;
    return { minds, next_cursor: more && last ? encodeCreatedCursor({ createdAt: last.created_at, id: last.id }) : null };
  }

  /**
   * Gone for the API at once, whatever the mind's writers do: one INSERT into `mind_deletions` (the
   * key is refused, every lookup leaves the mind out), then the mind's own row is marked if it is
   * free within a moment, else by the purge, which removes its rows in the background in bounded
   * chunks (purge.ts), so a large or busy mind holds neither the request nor the database.
   */
  async delete(userId: string, mindId: string): Promise<void> {
    const mind = await findMind(this.ctx.db, mindId);
    if (!mind) throw ApiError.notFound('Mind');
    if (mind.userId !== userId) throw ApiError.forbidden('mind_not_owned', ERROR_MESSAGES.mindNotOwned);
    const now = this.ctx.clock.now().toISOString();
    if (!(await insertMindDeletion(this.ctx.db, mindId, now))) throw ApiError.notFound('Mind');
    await this.markRowIfFree(mindId, now);
    this.deleted();
  }

  /** The mind's row, marked now unless its writers hold it longer than ROW_WAIT (then by the purge). */
  private async markRowIfFree(mindId: string, now: string): Promise<void> {
    try {
      await this.ctx.db.transaction(async (trx) => {
        await this.ctx.dialect.limitLockWait(trx, ROW_WAIT_MS);
        await markMindRowDeleted(trx, mindId, now);
      });
    } catch (err) {
      // Deleted already (committed above): the purge marks the row before it removes anything.
      this.ctx.log.debug({ err, mind_id: mindId }, 'deleted mind: its row is busy, the purge marks it');
    }
  }
}
