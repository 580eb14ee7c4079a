// OAuth over plain HTTP for the tests: a registered client, a PKCE pair, the consent page's Allow
// (POST /oauth/consent with the person's JWT) and the token exchange.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { bearer, type TestService } from '../harness.js';

export const REDIRECT = 'https://assistant.example/callback';

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(svc: TestService, body: object = {}): Promise<string> {
  const res = await svc.http
    .post('/oauth/register')
    .send({ client_name: 'Test assistant', redirect_uris: [REDIRECT], ...body })
    .expect(201);
  return res.body.client_id as string;
}

/** The authorization request's parameters as a client sends them. */
export const authorizeParams = (clientId: string, challenge: string, extra: Record<string, string> = {}) => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: REDIRECT,
  code_challenge: challenge,
  code_challenge_method: 'S256',
  state: 'state-1',
  ...extra,
});

/** Allow on the consent page: the code the client's redirect receives. */
export async function consentCode(svc: TestService, jwt: string, mindId: string, clientId: string, challenge: string, readOnly = false) {
  const res = await svc.http
    .post('/oauth/consent')
    .set(bearer(jwt))
    .send({ ...authorizeParams(clientId, challenge), decision: 'allow', mind_id: mindId, read_only: readOnly })
    .expect(200);
  const url = new URL(res.body.redirect_to as string);
  assert.equal(`${url.origin}${url.pathname}`, REDIRECT);
  assert.equal(url.searchParams.get('state'), 'state-1');
  return url.searchParams.get('code')!;
}

export const tokenRequest = (svc: TestService, form: Record<string, string>) => svc.http.post('/oauth/token').type('form').send(form);

/** A whole grant: client, consent, exchange; answers the token response and the client's id. */
export async function grant(svc: TestService, options: { readOnly?: boolean } = {}) {
  const owner = await svc.mind();
  const clientId = await registerClient(svc);
  const { verifier, challenge } = pkce();
  const code = await consentCode(svc, owner.jwt, owner.mindId, clientId, challenge, options.readOnly);
  const res = await tokenRequest(svc, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
  }).expect(200);
  return { owner, clientId, code, tokens: res.body as { access_token: string; refresh_token: string; scope: string; expires_in: number } };
}
