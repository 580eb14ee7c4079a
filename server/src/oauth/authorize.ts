import { ApiError } from '../http/api-error.js';
import { redirectUriMatches } from './clients.js';
import type { ClientRow } from './store.js';

/** The scopes of the protected resource (docs/mcp.md): a grant is one or the other. */
export const SCOPES = { read: 'mind:read', full: 'mind:full' } as const;

/** An authorization request (RFC 6749 section 4.1.1 with PKCE and RFC 8707), checked. */
export interface AuthorizationRequest {
  client: ClientRow;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  /** The client asked for `mind:read` only: the grant is read only whatever the person ticks. */
  readOnlyAsked: boolean;
}

const CHALLENGE = /^[A-Za-z0-9_-]{43,128}$/;
const MAX_STATE = 1000;

/** The parameters the page passes on, by name; `where` names them in errors (`query` or `body`). */
export type Params = Record<string, unknown>;

/** The `/mcp` URL this service's tokens are for (RFC 8707 `resource`). */
export const resourceOf = (publicUrl: string) => `${publicUrl}/mcp`;

/** Whether a `resource` parameter names this service's /mcp (one trailing slash aside). */
export const isOwnResource = (resource: string, publicUrl: string) => resource.replace(/\/$/, '') === resourceOf(publicUrl);

/**
 * Checks an authorization request's parameters. Errors are the service's error object (the console
 * page shows them; no redirect goes to a URI that is not proven the client's).
 */
export async function checkAuthorizationRequest(
  params: Params,
  where: 'query' | 'body',
  publicUrl: string,
  clientOf: (clientId: string, path: string) => Promise<ClientRow>,
): Promise<AuthorizationRequest> {
  const text = (name: string, max: number, required: boolean): string | undefined => {
    const value = params[name];
    if (value === undefined || value === '') {
      if (required) throw ApiError.invalidField(`${where}.${name}`, 'is required');
      return undefined;
    }
    if (typeof value !== 'string') throw ApiError.invalidField(`${where}.${name}`, 'must be given once, as a string');
    if (value.length > max) throw ApiError.invalidField(`${where}.${name}`, `must have at most ${max} characters`);
    return value;
  };
  const clientId = text('client_id', 2048, true)!;
  const client = await clientOf(clientId, `${where}.client_id`);
  const asked = text('redirect_uri', 2048, client.redirect_uris.length !== 1);
  const redirectUri = asked ?? client.redirect_uris[0]!;
  if (!redirectUriMatches(client.redirect_uris, redirectUri)) {
    throw ApiError.invalidField(`${where}.redirect_uri`, 'is not one of the redirect URIs this client registered');
  }
  const responseType = text('response_type', 100, true);
  if (responseType !== 'code') throw ApiError.invalidField(`${where}.response_type`, 'must be `code` (the authorization code flow)');
  const codeChallenge = text('code_challenge', 128, true)!;
  if (!CHALLENGE.test(codeChallenge)) {
    throw ApiError.invalidField(`${where}.code_challenge`, 'must be the base64url SHA-256 of the code verifier (43 characters)');
  }
  if (text('code_challenge_method', 10, true) !== 'S256') {
    throw ApiError.invalidField(`${where}.code_challenge_method`, 'must be `S256`: PKCE with SHA-256 is required');
  }
  const resource = text('resource', 2048, false);
  if (resource !== undefined && !isOwnResource(resource, publicUrl)) {
    throw ApiError.invalidField(`${where}.resource`, `must be ${resourceOf(publicUrl)}, the only resource this server issues tokens for`);
  }
  // Scopes other than the two are ignored (RFC 6749 section 3.3): the token's `scope` says what was granted.
  const scopes = (text('scope', 1000, false) ?? '').split(' ');
  const readOnlyAsked = scopes.includes(SCOPES.read) && !scopes.includes(SCOPES.full);
  return { client, redirectUri, codeChallenge, state: text('state', MAX_STATE, false), readOnlyAsked };
}

/** The redirect back to the client with `params` (and the request's `state`), as RFC 6749 section 4.1.2 says. */
export function redirectBack(request: AuthorizationRequest, params: Record<string, string>, issuer: string): string {
  const url = new URL(request.redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  if (request.state !== undefined) url.searchParams.set('state', request.state);
  // RFC 9207: the client can tell which authorization server answered.
  url.searchParams.set('iss', issuer);
  return url.toString();
}
