// OAuth 2.1 over HTTP (docs/mcp.md, "OAuth connectors"): the metadata documents, the 401's challenge
// on /mcp, registration, a code for a token once, rotating refresh tokens, the grant in the Keys tab
// and its revocation, and that no code, token or refresh token is stored in clear.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, freshPostgresSchema, startService, TEST_DATABASE_URL, TestClock, useService } from './harness.js';
import { consentCode, grant, pkce, REDIRECT, registerClient, tokenRequest } from './oauth/helpers.js';

describe('OAuth: metadata and the challenge of /mcp', () => {
  const svc = useService();

  test('the protected resource metadata names /mcp, this server, the two scopes and the header (RFC 9728)', async () => {
    const base = svc.config.publicUrl;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await svc.http.get(path).expect(200).expect('Content-Type', /json/);
      assert.equal(res.body.resource, `${base}/mcp`);
      assert.deepEqual(res.body.authorization_servers, [base]);
      assert.deepEqual(res.body.scopes_supported, ['mind:read', 'mind:full']);
      assert.deepEqual(res.body.bearer_methods_supported, ['header']);
    }
  });

  test('the authorization server metadata (RFC 8414): endpoints, code flow, PKCE S256 only, public clients, metadata documents', async () => {
    const base = svc.config.publicUrl;
    const res = await svc.http.get('/.well-known/oauth-authorization-server').expect(200);
    assert.equal(res.body.issuer, base);
    assert.equal(res.body.authorization_endpoint, `${base}/oauth/authorize`);
    assert.equal(res.body.token_endpoint, `${base}/oauth/token`);
    assert.equal(res.body.registration_endpoint, `${base}/oauth/register`);
    assert.deepEqual(res.body.response_types_supported, ['code']);
    assert.deepEqual(res.body.grant_types_supported, ['authorization_code', 'refresh_token']);
    assert.deepEqual(res.body.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(res.body.token_endpoint_auth_methods_supported, ['none']);
    assert.equal(res.body.client_id_metadata_document_supported, true);
  });

  test('a 401 of /mcp names the protected resource metadata in WWW-Authenticate; a refused token is invalid_token', async () => {
    const url = `${svc.config.publicUrl}/.well-known/oauth-protected-resource/mcp`;
    const none = await svc.http.post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(401);
    assert.equal(none.headers['www-authenticate'], `Bearer resource_metadata="${url}"`);
    assert.equal(none.body.code, 'credential_missing');
    const wrong = await svc.http
      .post('/mcp')
      .set(bearer(`mk_${'x'.repeat(43)}`))
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers['www-authenticate'], `Bearer resource_metadata="${url}", error="invalid_token"`);
  });

  test('GET /oauth/authorize is the console page: the request travels in the fragment', async () => {
    const res = await svc.http.get('/oauth/authorize?client_id=a&state=b').expect(302);
    assert.equal(res.headers.location, '/console/#/oauth/authorize?client_id=a&state=b');
  });

  test('a Mind Key keeps working on /mcp without meeting OAuth', async () => {
    const { mindKey } = await svc.mind();
    const res = await svc.http
      .post('/mcp')
      .set(bearer(mindKey))
      .set('Accept', 'application/json, text/event-stream')
      .set('MCP-Protocol-Version', '2025-06-18')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    assert.equal(res.status, 200);
  });
});

describe('OAuth: codes, tokens and grants', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  test('registration answers a public client: an id, no secret, token_endpoint_auth_method none', async () => {
    const res = await svc.http
      .post('/oauth/register')
      .send({ client_name: 'Claude', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' })
      .expect(201);
    assert.match(res.body.client_id, /^oc_/);
    assert.equal(res.body.client_secret, undefined);
    assert.equal(res.body.token_endpoint_auth_method, 'none');
    assert.deepEqual(res.body.redirect_uris, [REDIRECT]);
    assert.equal(res.body.client_name, 'Claude');
  });

  test('the consent page describes the request: the client name and where the answer goes', async () => {
    const clientId = await registerClient(svc, { client_name: 'ChatGPT' });
    const { challenge } = pkce();
    const res = await svc.http
      .get('/oauth/consent')
      .query({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        scope: 'mind:read',
      })
      .expect(200);
    assert.deepEqual(res.body, { client_id: clientId, client_name: 'ChatGPT', redirect_uri: REDIRECT, read_only_asked: true });
  });

  test('a code gives an access token (a Mind Key of source oauth for an hour) and a refresh token; the Keys tab lists it with the client name', async () => {
    const { owner, tokens } = await grant(svc);
    assert.match(tokens.access_token, /^mk_/);
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.scope, 'mind:full');
    await svc.http.get('/mind/tasks').set(bearer(tokens.access_token)).expect(200);
    const keys = (await svc.http.get(`/minds/${owner.mindId}/keys`).set(bearer(owner.jwt)).expect(200)).body.keys as Array<
      Record<string, unknown>
    >;
    const oauth = keys.filter((k) => k.source === 'oauth');
    assert.equal(oauth.length, 1);
    assert.equal(oauth[0]!.client_name, 'Test assistant');
    assert.equal(oauth[0]!.scope, 'full');
    const lifetime = Date.parse(oauth[0]!.expires_at as string) - Date.parse(oauth[0]!.created_at as string);
    assert.equal(lifetime, 3600_000);
  });

  test('Read only gives a read key: a write is refused with key_read_only', async () => {
    const { tokens } = await grant(svc, { readOnly: true });
    assert.equal(tokens.scope, 'mind:read');
    await svc.http.get('/mind/tasks').set(bearer(tokens.access_token)).expect(200);
    const res = await svc.http.post('/mind/task').set(bearer(tokens.access_token)).send({ title: 'no' }).expect(403);
    assert.equal(res.body.code, 'key_read_only');
  });

  test('a code works once: used again it is refused and what it gave is revoked', async () => {
    const owner = await svc.mind();
    const clientId = await registerClient(svc);
    const { verifier, challenge } = pkce();
    const code = await consentCode(svc, owner.jwt, owner.mindId, clientId, challenge);
    const form = { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT };
    const first = await tokenRequest(svc, form).expect(200);
    const again = await tokenRequest(svc, form).expect(400);
    assert.equal(again.body.error, 'invalid_grant');
    const refused = await svc.http.get('/mind/tasks').set(bearer(first.body.access_token)).expect(401);
    assert.equal(refused.body.code, 'mind_key_revoked');
    const refresh = await tokenRequest(svc, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token, client_id: clientId });
    assert.equal(refresh.body.error, 'invalid_grant');
  });

  test('a code lives 60 seconds', async () => {
    const owner = await svc.mind();
    const clientId = await registerClient(svc);
    const { verifier, challenge } = pkce();
    const code = await consentCode(svc, owner.jwt, owner.mindId, clientId, challenge);
    clock.advance(61_000);
    const res = await tokenRequest(svc, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId }).expect(
      400,
    );
    assert.equal(res.body.error, 'invalid_grant');
    assert.match(res.body.error_description, /expired/);
  });

  test('refresh tokens rotate; an old one used again revokes the grant, the newest refresh and access tokens included', async () => {
    const { clientId, tokens } = await grant(svc);
    const second = await tokenRequest(svc, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    }).expect(200);
    assert.notEqual(second.body.refresh_token, tokens.refresh_token);
    assert.notEqual(second.body.access_token, tokens.access_token);
    assert.equal(second.body.expires_in, 3600);
    await svc.http.get('/mind/tasks').set(bearer(second.body.access_token)).expect(200);
    // The rotated-out access token is gone.
    await svc.http.get('/mind/tasks').set(bearer(tokens.access_token)).expect(401);

    const replay = await tokenRequest(svc, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    }).expect(400);
    assert.equal(replay.body.error, 'invalid_grant');
    const newest = await tokenRequest(svc, {
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      client_id: clientId,
    }).expect(400);
    assert.equal(newest.body.error, 'invalid_grant');
    const refused = await svc.http.get('/mind/tasks').set(bearer(second.body.access_token)).expect(401);
    assert.equal(refused.body.code, 'mind_key_revoked');
  });

  test('a used refresh token is kept 7 days to recognise its reuse, then deleted', async () => {
    const { clientId, tokens } = await grant(svc);
    const rows = async () => (await svc.ctx.db('oauth_refresh_tokens').select('token_hash', 'used_at')).length;
    const before = await rows();
    const second = await tokenRequest(svc, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    }).expect(200);
    assert.equal(await rows(), before + 1);
    clock.advance(8 * 24 * 3600_000);
    await tokenRequest(svc, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token, client_id: clientId }).expect(200);
    // The first one went; the second (used now) and the third stay.
    assert.equal(await rows(), before + 1);
  });

  test('revoking the grant in the Keys tab ends it: the access token at once, the refresh token at its next use', async () => {
    const { owner, clientId, tokens } = await grant(svc);
    const keys = (await svc.http.get(`/minds/${owner.mindId}/keys`).set(bearer(owner.jwt)).expect(200)).body.keys as Array<{
      id: string;
      source: string;
    }>;
    const key = keys.find((k) => k.source === 'oauth')!;
    await svc.http.delete(`/minds/${owner.mindId}/keys/${key.id}`).set(bearer(owner.jwt)).expect(204);
    await svc.http.get('/mind/tasks').set(bearer(tokens.access_token)).expect(401);
    const refresh = await tokenRequest(svc, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    }).expect(400);
    assert.equal(refresh.body.error, 'invalid_grant');
    assert.match(refresh.body.error_description, /revoked/);
  });

  test('codes, access tokens and refresh tokens are stored only as hashes', async () => {
    const { code, tokens } = await grant(svc);
    const secrets = [code, tokens.access_token, tokens.refresh_token];
    for (const table of ['oauth_clients', 'oauth_codes', 'oauth_grants', 'oauth_refresh_tokens', 'mind_keys']) {
      const rows = JSON.stringify(await svc.ctx.db(table).select('*'));
      for (const secret of secrets) assert.ok(!rows.includes(secret), `${table} holds no secret in clear`);
    }
    assert.ok(JSON.stringify(await svc.ctx.db('oauth_refresh_tokens').select('*')).length > 2, 'the refresh tokens are stored (hashed)');
  });
});

describe('OAuth: grants survive a restart', () => {
  test('a refresh token and an access token made before a restart work after it', async () => {
    const pg = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    const dataDir = mkdtempSync(join(tmpdir(), 'mind-oauth-'));
    const env = { MIND_DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
    try {
      const before = await startService(env);
      const { clientId, tokens } = await grant(before);
      await before.stop();
      const after = await startService(env);
      try {
        await after.http.get('/mind/tasks').set(bearer(tokens.access_token)).expect(200);
        await tokenRequest(after, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }).expect(200);
      } finally {
        await after.stop();
      }
    } finally {
      await pg?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
