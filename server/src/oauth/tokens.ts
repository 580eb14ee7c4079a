import type { AppContext } from '../core/context.js';
import type { Conn } from '../db/database.js';
import { newId, sha256Hex } from '../lib/secrets.js';
import { countLiveKeys, insertKey } from '../minds/keys-store.js';
import { MAX_KEYS_PER_MIND, newMindKey } from '../minds/keys-service.js';
import { findMind, lockUser } from '../minds/store.js';
import { isOwnResource, resourceOf, SCOPES } from './authorize.js';
import { invalidGrant, invalidRequest, OAuthProblem } from './problem.js';
import { newSecret, s256 } from './service.js';
import * as store from './store.js';

/** An access token (a Mind Key of source `oauth`) lives an hour; a grant not refreshed for 30 days ends. */
export const ACCESS_TOKEN_SECONDS = 3600;
export const GRANT_IDLE_MS = 30 * 24 * 3600_000;
/** A used refresh token is kept this long to recognise its reuse (which revokes the grant), then deleted. */
export const USED_REFRESH_KEPT_MS = 7 * 24 * 3600_000;

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A refusal found inside a transaction that must still commit what it changed (a revoked grant). */
class Refusal {
  constructor(readonly problem: OAuthProblem) {}
}

/** /oauth/token: a code (with its PKCE verifier) or a refresh token for a new access token and refresh token. */
export class OAuthTokens {
  constructor(private readonly ctx: AppContext) {}

  async exchange(form: Record<string, string>): Promise<TokenAnswer> {
    const grantType = form.grant_type;
    if (!grantType) throw invalidRequest('grant_type is required: authorization_code or refresh_token');
    if (form.resource !== undefined && !isOwnResource(form.resource, this.ctx.config.publicUrl)) {
      throw new OAuthProblem('invalid_target', `resource must be ${resourceOf(this.ctx.config.publicUrl)}`);
    }
    if (!form.client_id) throw invalidRequest('client_id is required (this server has public clients: no secret, the id in the body)');
    let result: TokenAnswer | Refusal;
    if (grantType === 'authorization_code') result = await this.ctx.db.transaction((trx) => this.fromCode(trx, form));
    else if (grantType === 'refresh_token') result = await this.ctx.db.transaction((trx) => this.fromRefreshToken(trx, form));
    else throw new OAuthProblem('unsupported_grant_type', `grant_type ${grantType} is not supported: authorization_code or refresh_token`);
    if (result instanceof Refusal) throw result.problem;
    return result;
  }

  private async fromCode(trx: Conn, form: Record<string, string>): Promise<TokenAnswer | Refusal> {
    if (!form.code) throw invalidRequest('code is required');
    if (!form.code_verifier) throw invalidRequest('code_verifier is required: PKCE (S256) is required');
    if (!VERIFIER.test(form.code_verifier)) throw invalidRequest('code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
    const now = this.ctx.clock.now();
    const codeHash = sha256Hex(form.code);
    const code = await store.findCode(trx, codeHash);
    if (!code) throw invalidGrant('the code is unknown');
    if (code.used_at !== null) {
      // A code used twice was intercepted or replayed: what it gave is taken back (RFC 6749 section 4.1.2).
      const grant = code.grant_id ? await store.findGrant(trx, code.grant_id) : undefined;
      if (grant) await store.revokeGrant(trx, grant, now.toISOString());
      return new Refusal(invalidGrant('the code was used already; the tokens it gave are revoked'));
    }
    if (Date.parse(code.expires_at) <= now.getTime()) throw invalidGrant('the code expired (a code lives 60 seconds)');
    if (code.client_id !== form.client_id) throw invalidGrant('the code was issued to another client');
    if (form.redirect_uri !== undefined && form.redirect_uri !== code.redirect_uri) {
      throw invalidGrant('redirect_uri is not the one of the authorization request');
    }
    if (s256(form.code_verifier) !== code.code_challenge) throw invalidGrant('code_verifier does not match the code_challenge (S256)');
    const grantId = newId();
    if (!(await store.useCode(trx, codeHash, now.toISOString(), grantId))) throw invalidGrant('the code was used already');
    const mind = await findMind(trx, code.mind_id);
    if (!mind) throw invalidGrant('the mind of this code was deleted');
    await lockUser(trx, this.ctx.dialect, mind.userId);
    if ((await countLiveKeys(trx, mind.id)) >= MAX_KEYS_PER_MIND) {
      throw invalidGrant(`the mind has ${MAX_KEYS_PER_MIND} keys, the most it can have: its owner must revoke one first`);
    }
    const client = await store.findClient(trx, code.client_id);
    const key = await this.newAccessKey(trx, mind.id, code.scope, client?.client_name ?? code.client_id);
    await store.insertGrant(trx, {
      id: grantId,
      client_id: code.client_id,
      mind_id: mind.id,
      key_id: key.id,
      scope: code.scope,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + GRANT_IDLE_MS).toISOString(),
    });
    return this.answer(trx, grantId, key.secret, code.scope);
  }

  private async fromRefreshToken(trx: Conn, form: Record<string, string>): Promise<TokenAnswer | Refusal> {
    if (!form.refresh_token) throw invalidRequest('refresh_token is required');
    const now = this.ctx.clock.now();
    const tokenHash = sha256Hex(form.refresh_token);
    const token = await store.findRefreshToken(trx, tokenHash);
    if (!token) throw invalidGrant('the refresh token is unknown');
    const grant = await store.findGrant(trx, token.grant_id);
    if (!grant || grant.client_id !== form.client_id) throw invalidGrant('the refresh token was issued to another client');
    if (grant.revoked_at !== null) throw invalidGrant('the grant was revoked: the person must connect again');
    const revoke = async (why: string) => {
      await store.revokeGrant(trx, grant, now.toISOString());
      return new Refusal(invalidGrant(why));
    };
    // An old refresh token used again means two holders: neither keeps the grant (OAuth 2.1 section 4.3.1).
    if (token.used_at !== null) return revoke('the refresh token was used already; the grant is revoked, the person must connect again');
    const key = await store.findKeyState(trx, grant.key_id);
    if (!key || key.revoked_at !== null) return revoke("the grant's key was revoked in the mind's Keys tab: the person must connect again");
    if (Date.parse(grant.expires_at) <= now.getTime()) return revoke('the grant was not used for 30 days and expired');
    if (!(await findMind(trx, grant.mind_id))) return revoke('the mind of this grant was deleted');
    if (!(await store.useRefreshToken(trx, tokenHash, now.toISOString()))) {
      return revoke('the refresh token was used already; the grant is revoked, the person must connect again');
    }
    const client = await store.findClient(trx, grant.client_id);
    // The previous access token goes: the Keys tab shows one key per grant.
    await store.deleteKey(trx, grant.key_id);
    const fresh = await this.newAccessKey(trx, grant.mind_id, grant.scope, client?.client_name ?? grant.client_id);
    await store.updateGrantKey(trx, grant.id, fresh.id, new Date(now.getTime() + GRANT_IDLE_MS).toISOString());
    await store.deleteOldRefreshTokens(trx, grant.id, new Date(now.getTime() - USED_REFRESH_KEPT_MS).toISOString());
    return this.answer(trx, grant.id, fresh.secret, grant.scope);
  }

  private async newAccessKey(trx: Conn, mindId: string, scope: 'full' | 'read', clientName: string) {
    const now = this.ctx.clock.now();
    const key = newMindKey();
    const id = newId();
    const name = clientName.slice(0, 200);
    await insertKey(trx, {
      id,
      mind_id: mindId,
      key_hash: key.hash,
      label: name,
      scope,
      prefix: key.prefix,
      source: 'oauth',
      client_name: name,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
    });
    return { id, secret: key.secret };
  }

  private async answer(trx: Conn, grantId: string, accessToken: string, scope: 'full' | 'read'): Promise<TokenAnswer> {
    const refreshToken = newSecret('mr_');
    await store.insertRefreshToken(trx, sha256Hex(refreshToken), grantId, this.ctx.clock.now().toISOString());
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
      scope: SCOPES[scope],
    };
  }
}
