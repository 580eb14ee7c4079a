import { createHash, randomBytes } from 'node:crypto';
import { ERROR_MESSAGES } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { sha256Hex } from '../lib/secrets.js';
import { countLiveKeys } from '../minds/keys-store.js';
import { MAX_KEYS_PER_MIND } from '../minds/keys-service.js';
import { findMind } from '../minds/store.js';
import { type AuthorizationRequest, checkAuthorizationRequest, type Params, redirectBack } from './authorize.js';
import { type ClientMetadata, checkClientMetadata, fetchClientDocument, isDocumentClientId } from './clients.js';
import { OAuthProblem } from './problem.js';
import { type ClientRow, countClients, deleteExpiredCodes, deleteUnusedClients, findClient, insertClient, insertCode } from './store.js';

/** A code is exchanged within this time, once. */
export const CODE_LIFETIME_MS = 60_000;
/** Registered clients the database holds at most; unused ones older than an hour make room. */
export const MAX_CLIENTS = 10_000;

/** A secret of 32 random bytes with a prefix that says what it is; only its hash is stored. */
export const newSecret = (prefix: 'mc_' | 'mr_') => `${prefix}${randomBytes(32).toString('base64url')}`;

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) equals the challenge. */
export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** Registration, the client lookup and the consent page's decisions. Tokens are tokens.ts's. */
export class OAuthService {
  constructor(private readonly ctx: AppContext) {}

  /** RFC 7591: a public client (no secret); `token_endpoint_auth_method` is always `none`. */
  async register(body: unknown) {
    const meta = checkClientMetadata(body);
    const now = this.ctx.clock.now();
    const client: ClientRow = {
      id: `oc_${randomBytes(16).toString('base64url')}`,
      ...meta,
      kind: 'registered',
      created_at: now.toISOString(),
    };
    if (!(await this.makeRoom())) {
      throw new OAuthProblem('temporarily_unavailable', 'This server holds as many OAuth clients as it takes; try again later.', 503, {
        'Retry-After': '3600',
      });
    }
    await insertClient(this.ctx.db, client);
    return {
      client_id: client.id,
      client_id_issued_at: Math.floor(now.getTime() / 1000),
      client_name: client.client_name,
      redirect_uris: client.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  /** Whether one more client fits under MAX_CLIENTS, after deleting clients unused for an hour if it did not. */
  private async makeRoom(): Promise<boolean> {
    if ((await countClients(this.ctx.db)) < MAX_CLIENTS) return true;
    await deleteUnusedClients(this.ctx.db, new Date(this.ctx.clock.now().getTime() - 3600_000).toISOString(), 1000);
    return (await countClients(this.ctx.db)) < MAX_CLIENTS;
  }

  /**
   * The client a `client_id` names: registered here, or an https URL whose metadata document is
   * fetched once (`beforeFetch` counts the fetch against the caller's limit, and throws past it).
   */
  async clientOf(clientId: string, path: string, beforeFetch: () => Promise<void>): Promise<ClientRow> {
    const known = await findClient(this.ctx.db, clientId);
    if (known) return known;
    if (!isDocumentClientId(clientId)) {
      throw ApiError.invalidField(
        path,
        'is no client of this server: register it at /oauth/register, or use the https URL of its metadata document',
      );
    }
    await beforeFetch();
    if (!(await this.makeRoom())) {
      throw ApiError.of(429, 'oauth_clients_exceeded', 'This server holds as many OAuth clients as it takes; try again later.', {
        headers: { 'Retry-After': '3600' },
      });
    }
    let meta: ClientMetadata;
    try {
      meta = await fetchClientDocument(clientId);
    } catch (err) {
      throw ApiError.invalidField(path, `its client metadata document could not be used: ${(err as Error).message}`);
    }
    const client: ClientRow = { id: clientId, ...meta, kind: 'document', created_at: this.ctx.clock.now().toISOString() };
    await insertClient(this.ctx.db, client);
    return client;
  }

  /** What the consent page shows: the client's name, where the answer goes, whether only reading was asked. */
  async describe(params: Params, beforeFetch: () => Promise<void>) {
    const request = await this.check(params, 'query', beforeFetch);
    return {
      client_id: request.client.id,
      client_name: request.client.client_name,
      redirect_uri: request.redirectUri,
      read_only_asked: request.readOnlyAsked,
    };
  }

  /**
   * The person's answer: Deny goes back with `access_denied`; Allow with a code for the chosen mind
   * (theirs), good for one exchange within a minute.
   */
  async decide(userId: string, body: Params, beforeFetch: () => Promise<void>): Promise<{ redirect_to: string }> {
    const request = await this.check(body, 'body', beforeFetch);
    const issuer = this.ctx.config.publicUrl;
    if (body.decision === 'deny') return { redirect_to: redirectBack(request, { error: 'access_denied' }, issuer) };
    if (body.decision !== 'allow') throw ApiError.invalidField('body.decision', 'must be `allow` or `deny`');
    if (typeof body.mind_id !== 'string' || !body.mind_id) throw ApiError.invalidField('body.mind_id', 'is required: the mind to connect');
    if (body.read_only !== undefined && typeof body.read_only !== 'boolean')
      throw ApiError.invalidField('body.read_only', 'must be a boolean');
    const mind = await findMind(this.ctx.db, body.mind_id);
    if (!mind || mind.userId !== userId) throw ApiError.notFound('Mind');
    if ((await countLiveKeys(this.ctx.db, mind.id)) >= MAX_KEYS_PER_MIND) {
      throw ApiError.conflict('mind_keys_limit_reached', ERROR_MESSAGES.mindKeysLimitReached(MAX_KEYS_PER_MIND));
    }
    const code = newSecret('mc_');
    const now = this.ctx.clock.now();
    await this.ctx.db.transaction(async (trx) => {
      await deleteExpiredCodes(trx, now.toISOString(), 100);
      await insertCode(trx, {
        code_hash: sha256Hex(code),
        client_id: request.client.id,
        mind_id: mind.id,
        redirect_uri: request.redirectUri,
        code_challenge: request.codeChallenge,
        scope: body.read_only === true || request.readOnlyAsked ? 'read' : 'full',
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + CODE_LIFETIME_MS).toISOString(),
      });
    });
    return { redirect_to: redirectBack(request, { code }, issuer) };
  }

  private check(params: Params, where: 'query' | 'body', beforeFetch: () => Promise<void>): Promise<AuthorizationRequest> {
    return checkAuthorizationRequest(params, where, this.ctx.config.publicUrl, (id, path) => this.clientOf(id, path, beforeFetch));
  }
}
