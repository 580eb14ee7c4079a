import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { type AuthKind, ERROR_MESSAGES, type ErrorCodeOf } from '@mindservice/contract';
import jwt from 'jsonwebtoken';
import type { Logger } from 'pino';
import type { Clock } from '../lib/clock.js';
import type { Config } from '../lib/config.js';
import { sha256Hex } from '../lib/secrets.js';
import { ApiError } from './api-error.js';
import type { Caller } from './caller.js';
import type { RateLimiter } from './rate-limit.js';

type CredentialKind = 'mindKey' | 'jwt' | 'computerToken';
type Presented = CredentialKind | 'unknown';

const ACCEPTS: Record<AuthKind, CredentialKind[]> = {
  none: [],
  jwt: ['jwt'],
  mindKey: ['mindKey'],
  mindKeyOrJwt: ['mindKey', 'jwt'],
  computerToken: ['computerToken'],
};

const NAMES: Record<CredentialKind, string> = { mindKey: 'a Mind Key', jwt: 'a JWT', computerToken: 'a Computer Token' };

const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;
const classify = (token: string): Presented =>
  token.startsWith('mk_') ? 'mindKey' : token.startsWith('ct_') ? 'computerToken' : JWT_SHAPE.test(token) ? 'jwt' : 'unknown';

/** What authentication reads of a request: its headers, and its query for `?key=`. */
export interface CredentialSource {
  headers: IncomingHttpHeaders;
  query?: Record<string, string | string[] | undefined>;
  ip?: string;
}

export interface Authenticator {
  /**
   * The caller, if the request carries credentials the route accepts (anonymous for `none`); else an
   * ApiError (401, 403, 429). `writes`: the route changes something, which a `read` Mind Key may not.
   */
  authenticate(req: CredentialSource, res: Pick<ServerResponse, 'setHeader'>, auth: AuthKind, writes?: boolean): Promise<Caller>;
}

/** What the authenticator needs of the service: the public URL (the 401's guide), the JWT secret, the `?key=` limiter, the time. */
export interface AuthContext {
  config: Pick<Config, 'publicUrl'>;
  jwtSecret: string;
  keyRateLimiter: RateLimiter;
  clock: Clock;
  log: Pick<Logger, 'warn'>;
}

/** The 403 of a `read` Mind Key on a route (or MCP tool) that writes: HTTP and MCP refuse alike. */
export function refuseReadOnlyWrite(caller: Caller, writes: boolean): void {
  if (writes && caller.kind === 'mind' && caller.scope === 'read') throw ApiError.forbidden('key_read_only', ERROR_MESSAGES.keyReadOnly);
}

/** `last_used_at` is kept to this: a key's use is written at most once in it, off the request's path. */
const KEY_USE_GRAIN_MS = 60_000;

/**
 * Who a credential names, by the SHA-256 of a Mind Key or Computer Token and by a JWT's subject:
 * the areas' stores answer (app.ts passes them in), so the mechanism here knows no area.
 */
export interface CredentialLookups {
  mindByKeyHash(keyHash: string): Promise<MindKeyHolder | undefined>;
  /** Records a key's use at `now` unless one since `since` is recorded. */
  keyUsed(keyId: string, now: string, since: string): Promise<void>;
  computerByTokenHash(tokenHash: string): Promise<{ id: string; userId: string; mindId: string | null; mindDisabled: boolean } | undefined>;
  userExists(userId: string): Promise<boolean>;
}

/** A Mind Key's mind, and the key's own rules. */
export interface MindKeyHolder {
  id: string;
  userId: string;
  disabled: boolean;
  keyId: string;
  scope: 'full' | 'read';
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/**
 * The one auth path: route metadata says which credentials a route takes, this checks them from
 * the request's headers (and `?key=`) and gives the caller. No handler reads credentials itself.
 */
export function createAuthenticator(ctx: AuthContext, lookups: CredentialLookups): Authenticator {
  // Every 401 has the spec's message and guide; its code and hint say what was wrong.
  const docs = `${ctx.config.publicUrl}/docs/getting-started/authentication`;
  const unauthorized = (code: ErrorCodeOf<401>, hint: string) =>
    ApiError.of(401, code, ERROR_MESSAGES.unauthorized, { docs, details: [{ path: 'headers.authorization', message: hint }] });
  const mindDisabled = () => ApiError.forbidden('mind_disabled', ERROR_MESSAGES.mindDisabled);

  // Keys whose use is being written now: one statement at a time per key, whatever comes meanwhile.
  const recordingUse = new Set<string>();
  function recordUse(holder: MindKeyHolder, now: number) {
    const since = new Date(now - KEY_USE_GRAIN_MS).toISOString();
    if ((holder.lastUsedAt !== null && holder.lastUsedAt >= since) || recordingUse.has(holder.keyId)) return;
    recordingUse.add(holder.keyId);
    lookups
      .keyUsed(holder.keyId, new Date(now).toISOString(), since)
      .catch((err: unknown) => ctx.log.warn({ err, key_id: holder.keyId }, 'could not record the use of a Mind Key'))
      .finally(() => recordingUse.delete(holder.keyId));
  }

  async function authenticate(
    req: CredentialSource,
    res: Pick<ServerResponse, 'setHeader'>,
    accepts: CredentialKind[],
    writes: boolean,
  ): Promise<Caller> {
    const header = req.headers.authorization;
    let token: string | undefined;
    let fromQuery = false;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!match) throw unauthorized('credential_malformed', 'expected `Authorization: Bearer <credential>`');
      token = match[1];
    } else if (accepts.includes('mindKey') && req.query?.key !== undefined) {
      await applyKeyRateLimit(req, res);
      if (typeof req.query?.key !== 'string' || !req.query.key)
        throw unauthorized('credential_malformed', 'the `key` query parameter must be one Mind Key');
      token = req.query.key;
      fromQuery = true;
    }
    if (!token) {
      const wanted = accepts.map((k) => NAMES[k]).join(' or ');
      throw unauthorized('credential_missing', `this route needs ${wanted}${accepts.includes('mindKey') ? ' (header or `?key=`)' : ''}`);
    }

    // Whatever arrives as `?key=` is meant as a Mind Key.
    const kind = fromQuery ? 'mindKey' : classify(token);
    if (kind === 'unknown') throw unauthorized('credential_malformed', 'not a Mind Key (mk_...), a JWT or a Computer Token (ct_...)');
    if (!accepts.includes(kind)) {
      throw unauthorized('credential_wrong_kind', `this route takes ${accepts.map((k) => NAMES[k]).join(' or ')}, not ${NAMES[kind]}`);
    }
    if (kind === 'mindKey') {
      const holder = await lookups.mindByKeyHash(sha256Hex(token));
      if (!holder) throw unauthorized('mind_key_invalid', "unknown Mind Key (a deleted mind's key stops working)");
      if (holder.revokedAt !== null) throw unauthorized('mind_key_revoked', "this Mind Key was revoked by the mind's owner");
      const now = ctx.clock.now().getTime();
      if (holder.expiresAt !== null && Date.parse(holder.expiresAt) <= now) {
        throw unauthorized('mind_key_expired', `this Mind Key expired at ${holder.expiresAt}`);
      }
      if (holder.disabled) throw mindDisabled();
      const caller: Caller = { kind: 'mind', userId: holder.userId, mindId: holder.id, keyId: holder.keyId, scope: holder.scope };
      refuseReadOnlyWrite(caller, writes);
      recordUse(holder, now);
      return caller;
    }
    if (kind === 'computerToken') {
      const computer = await lookups.computerByTokenHash(sha256Hex(token));
      if (!computer) throw unauthorized('computer_token_invalid', 'unknown or revoked Computer Token');
      if (computer.mindDisabled) throw mindDisabled();
      return { kind: 'computer', userId: computer.userId, mindId: computer.mindId, computerId: computer.id };
    }
    let userId: string | undefined;
    try {
      const payload = jwt.verify(token, ctx.jwtSecret, { algorithms: ['HS256'] });
      userId = typeof payload === 'object' ? payload.sub : undefined;
    } catch (err) {
      const expired = err instanceof jwt.TokenExpiredError;
      throw expired ? unauthorized('jwt_expired', 'the JWT has expired; log in again') : unauthorized('jwt_invalid', 'invalid JWT');
    }
    if (!userId || !(await lookups.userExists(userId))) throw unauthorized('jwt_invalid', 'invalid JWT');
    return { kind: 'user', userId };
  }

  async function applyKeyRateLimit(req: CredentialSource, res: Pick<ServerResponse, 'setHeader'>) {
    const result = await ctx.keyRateLimiter.hit(req.ip ?? 'unknown');
    res.setHeader('X-RateLimit-Limit', String(result.limit));
    res.setHeader('X-RateLimit-Remaining', String(result.remaining));
    res.setHeader('X-RateLimit-Reset', String(result.resetAt));
    if (result.limited) {
      throw ApiError.of(429, 'rate_limited', ERROR_MESSAGES.rateLimited, { headers: { 'Retry-After': String(result.retryAfter) } });
    }
  }

  return {
    authenticate: (req, res, auth, writes = false) =>
      auth === 'none' ? Promise.resolve(ANONYMOUS) : authenticate(req, res, ACCEPTS[auth], writes),
  };
}
