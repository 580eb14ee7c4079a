// Bad input on every OAuth endpoint is a 4xx, never a 500: /oauth/token and /oauth/register answer
// RFC 6749 / RFC 7591 JSON ({error, error_description}), the consent calls the service's error object.
// A redirect URI the client did not register is refused; a client id that is a URL is never fetched
// from a private address; what an anonymous caller can register is bounded.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';
import { authorizeParams, consentCode, pkce, REDIRECT, registerClient, tokenRequest } from './oauth/helpers.js';

const assertOAuthError = (body: Record<string, unknown>, error: string) => {
  assert.equal(body.error, error, JSON.stringify(body));
  assert.equal(typeof body.error_description, 'string');
  assert.ok((body.error_description as string).length > 5);
};

describe('OAuth: bad input', () => {
  const svc = useService();

  test('registration: what is wrong with the metadata is named, RFC 7591 style', async () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, 'invalid_redirect_uri', /redirect_uris is required/],
      [{ redirect_uris: 'https://a.example/cb' }, 'invalid_redirect_uri', /array/],
      [{ redirect_uris: [] }, 'invalid_redirect_uri', /at least one/],
      [{ redirect_uris: Array.from({ length: 6 }, (_, i) => `https://a.example/${i}`) }, 'invalid_redirect_uri', /at most 5/],
      [{ redirect_uris: [`https://a.example/${'x'.repeat(1000)}`] }, 'invalid_redirect_uri', /longer than 1000/],
      [{ redirect_uris: ['http://a.example/cb'] }, 'invalid_redirect_uri', /https/],
      [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri', /https/],
      [{ redirect_uris: ['https://a.example/cb#x'] }, 'invalid_redirect_uri', /fragment/],
      [{ redirect_uris: ['not a url'] }, 'invalid_redirect_uri', /absolute URL/],
      [{ redirect_uris: [REDIRECT], client_name: 'x'.repeat(201) }, 'invalid_client_metadata', /client_name/],
      [{ redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, 'invalid_client_metadata', /client_credentials/],
      [{ redirect_uris: [REDIRECT], response_types: ['token'] }, 'invalid_client_metadata', /token/],
      [[1, 2], 'invalid_client_metadata', /JSON object/],
    ];
    for (const [body, error, description] of cases) {
      const res = await svc.http.post('/oauth/register').send(body as object);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assertOAuthError(res.body, error);
      assert.match(res.body.error_description, description);
    }
    const notJson = await svc.http.post('/oauth/register').set('Content-Type', 'application/json').send('{"redirect_uris":');
    assert.equal(notJson.status, 400);
    assertOAuthError(notJson.body, 'invalid_client_metadata');
    const form = await svc.http.post('/oauth/register').type('form').send({ redirect_uris: REDIRECT });
    assert.equal(form.status, 400);
    const big = await svc.http.post('/oauth/register').send({ redirect_uris: [REDIRECT], padding: 'x'.repeat(20_000) });
    assert.equal(big.status, 413);
    assertOAuthError(big.body, 'invalid_client_metadata');
    const get = await svc.http.get('/oauth/register').expect(405);
    assertOAuthError(get.body, 'invalid_request');
    assert.equal(get.headers.allow, 'POST, OPTIONS');
  });

  test('token: every missing or wrong parameter is an RFC 6749 error', async () => {
    const owner = await svc.mind();
    const clientId = await registerClient(svc);
    const other = await registerClient(svc);
    const { verifier, challenge } = pkce();
    const code = await consentCode(svc, owner.jwt, owner.mindId, clientId, challenge);
    const good = { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: REDIRECT };
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...good, grant_type: '' }, 'invalid_request'],
      [{ ...good, grant_type: 'password' }, 'unsupported_grant_type'],
      [{ ...good, client_id: '' }, 'invalid_request'],
      [{ ...good, code: '' }, 'invalid_request'],
      [{ ...good, code_verifier: '' }, 'invalid_request'],
      [{ ...good, code_verifier: 'short' }, 'invalid_request'],
      [{ ...good, code_verifier: pkce().verifier }, 'invalid_grant'],
      [{ ...good, code: 'mc_unknown' }, 'invalid_grant'],
      [{ ...good, client_id: other }, 'invalid_grant'],
      [{ ...good, redirect_uri: 'https://assistant.example/other' }, 'invalid_grant'],
      [{ ...good, resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
      [{ grant_type: 'refresh_token', client_id: clientId }, 'invalid_request'],
      [{ grant_type: 'refresh_token', client_id: clientId, refresh_token: 'mr_unknown' }, 'invalid_grant'],
    ];
    for (const [form, error] of cases) {
      const res = await tokenRequest(svc, form);
      assert.equal(res.status, 400, JSON.stringify(form));
      assertOAuthError(res.body, error);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
    // None of those used the code up.
    const ok = await tokenRequest(svc, { ...good, resource: `${svc.config.publicUrl}/mcp` }).expect(200);
    assert.match(ok.body.access_token, /^mk_/);

    const json = await svc.http.post('/oauth/token').send(good).expect(400);
    assertOAuthError(json.body, 'invalid_request');
    const twice = await svc.http
      .post('/oauth/token')
      .type('form')
      .send('grant_type=authorization_code&grant_type=refresh_token')
      .expect(400);
    assertOAuthError(twice.body, 'invalid_request');
    const big = await svc.http
      .post('/oauth/token')
      .type('form')
      .send(`code=${'x'.repeat(20_000)}`);
    assert.equal(big.status, 413);
    assertOAuthError(big.body, 'invalid_request');
    const badBasic = await svc.http
      .post('/oauth/token')
      .type('form')
      .set('Authorization', 'Basic JTZ6')
      .send({ grant_type: 'refresh_token' });
    assert.equal(badBasic.status, 400);
    const get = await svc.http.get('/oauth/token').expect(405);
    assertOAuthError(get.body, 'invalid_request');
  });

  test('the consent calls: bad requests are the error object, naming the parameter; a foreign redirect URI is refused', async () => {
    const clientId = await registerClient(svc);
    const { challenge } = pkce();
    const good = authorizeParams(clientId, challenge);
    const cases: Array<[Record<string, string>, string]> = [
      [{ ...good, client_id: '' }, 'query.client_id'],
      [{ ...good, client_id: 'oc_nobody' }, 'query.client_id'],
      [{ ...good, redirect_uri: 'https://evil.example/callback' }, 'query.redirect_uri'],
      [{ ...good, redirect_uri: 'https://assistant.example/callback/' }, 'query.redirect_uri'],
      [{ ...good, response_type: 'token' }, 'query.response_type'],
      [{ ...good, code_challenge: '' }, 'query.code_challenge'],
      [{ ...good, code_challenge: 'too-short' }, 'query.code_challenge'],
      [{ ...good, code_challenge_method: 'plain' }, 'query.code_challenge_method'],
      [{ ...good, code_challenge_method: '' }, 'query.code_challenge_method'],
      [{ ...good, resource: 'https://elsewhere.example/mcp' }, 'query.resource'],
      [{ ...good, state: 'x'.repeat(1001) }, 'query.state'],
    ];
    for (const [query, path] of cases) {
      const res = await svc.http.get('/oauth/consent').query(query);
      assert.equal(res.status, 400, path);
      assert.equal(res.body.code, 'validation_failed');
      assert.equal(res.body.details[0].path, path);
    }
    const twice = await svc.http.get(`/oauth/consent?client_id=${clientId}&client_id=${clientId}`).expect(400);
    assert.equal(twice.body.details[0].path, 'query.client_id');

    const owner = await svc.mind();
    const stranger = await svc.mind();
    const post = (jwt: string | undefined, body: object) => {
      const req = svc.http.post('/oauth/consent');
      return (jwt ? req.set(bearer(jwt)) : req).send(body);
    };
    assert.equal((await post(undefined, { ...good, decision: 'allow', mind_id: owner.mindId })).status, 401);
    assert.equal((await post(owner.mindKey, { ...good, decision: 'allow', mind_id: owner.mindId })).status, 401);
    const foreign = await post(owner.jwt, { ...good, decision: 'allow', mind_id: stranger.mindId });
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.code, 'mind_not_found');
    assert.equal((await post(owner.jwt, { ...good, decision: 'maybe', mind_id: owner.mindId })).body.details[0].path, 'body.decision');
    assert.equal((await post(owner.jwt, { ...good, decision: 'allow' })).body.details[0].path, 'body.mind_id');
    assert.equal((await post(owner.jwt, { ...good, decision: 'allow', mind_id: owner.mindId, read_only: 'yes' })).status, 400);
    const evil = await post(owner.jwt, { ...good, redirect_uri: 'https://evil.example/cb', decision: 'deny' });
    assert.equal(evil.status, 400);
    assert.equal(evil.body.details[0].path, 'body.redirect_uri');
    assert.equal((await svc.http.post('/oauth/consent').set(bearer(owner.jwt)).send([1])).status, 400);
    assert.equal((await svc.http.delete('/oauth/consent')).status, 405);

    const denied = await post(owner.jwt, { ...good, decision: 'deny' }).expect(200);
    const url = new URL(denied.body.redirect_to);
    assert.equal(url.searchParams.get('error'), 'access_denied');
    assert.equal(url.searchParams.get('state'), 'state-1');
    assert.equal(url.searchParams.get('code'), null);
  });

  test('a loopback redirect URI may use any port (RFC 8252); its path may not change', async () => {
    const clientId = await registerClient(svc, { redirect_uris: ['http://127.0.0.1:1234/cb'] });
    const { challenge } = pkce();
    await svc.http
      .get('/oauth/consent')
      .query({ ...authorizeParams(clientId, challenge), redirect_uri: 'http://127.0.0.1:5678/cb' })
      .expect(200);
    await svc.http
      .get('/oauth/consent')
      .query({ ...authorizeParams(clientId, challenge), redirect_uri: 'http://127.0.0.1:5678/other' })
      .expect(400);
  });

  test('a client id that is an https URL is never fetched from a private or loopback address', async () => {
    const { challenge } = pkce();
    for (const clientId of ['https://127.0.0.1:9/client.json', 'https://localhost:9/client.json', 'https://[::1]:9/client.json']) {
      const res = await svc.http
        .get('/oauth/consent')
        .query({ ...authorizeParams(clientId, challenge), redirect_uri: REDIRECT })
        .expect(400);
      assert.equal(res.body.details[0].path, 'query.client_id');
      assert.match(res.body.details[0].message, /not a public address/);
    }
    const plain = await svc.http
      .get('/oauth/consent')
      .query({ ...authorizeParams('http://a.example/client.json', challenge) })
      .expect(400);
    assert.match(plain.body.details[0].message, /register it/);
  });
});

describe('OAuth: an anonymous caller cannot fill the database', () => {
  const svc = useService();

  test('at most 20 registrations an hour from one address, then 429 with Retry-After', async () => {
    for (let i = 0; i < 20; i++)
      await svc.http
        .post('/oauth/register')
        .send({ redirect_uris: [REDIRECT] })
        .expect(201);
    const res = await svc.http
      .post('/oauth/register')
      .send({ redirect_uris: [REDIRECT] })
      .expect(429);
    assertOAuthError(res.body, 'temporarily_unavailable');
    assert.ok(Number(res.headers['retry-after']) > 0);
  });

  test('at most 20 client metadata documents an hour are fetched for one address, then 429 oauth_clients_exceeded', async () => {
    const { challenge } = pkce();
    const ask = (i: number) =>
      svc.http
        .get('/oauth/consent')
        .query({ ...authorizeParams(`https://localhost:9/client-${i}.json`, challenge), redirect_uri: REDIRECT });
    for (let i = 0; i < 20; i++) assert.equal((await ask(i)).status, 400);
    const res = await ask(20).expect(429);
    assert.equal(res.body.code, 'oauth_clients_exceeded');
    assert.ok(Number(res.headers['retry-after']) > 0);
  });
});
