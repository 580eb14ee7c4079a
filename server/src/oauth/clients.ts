import { request } from 'node:https';
import { z } from 'zod';
import { checkLiteralAddress, publicOnlyLookup } from '../webhooks/ssrf.js';
import { invalidClientMetadata, OAuthProblem } from './problem.js';

/** What one client may register: a few short redirect URIs and a name, so registrations cannot fill the database. */
export const MAX_REDIRECT_URIS = 5;
export const MAX_REDIRECT_URI_LENGTH = 1000;
export const MAX_CLIENT_NAME = 200;
/** A client metadata document is read up to this size and this time, then refused. */
export const MAX_DOCUMENT_BYTES = 8 * 1024;
export const DOCUMENT_TIMEOUT_MS = 5000;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why a redirect URI cannot be registered, or null: https anywhere, http only to this machine (RFC 8252), no fragment. */
export function redirectUriProblem(uri: string): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `is longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.hash || uri.includes('#')) return 'must not have a fragment (#...)';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return 'must be an https:// URL, or http:// to localhost, 127.0.0.1 or [::1]';
}

/**
 * Whether a requested redirect URI is one the client registered: exactly, except that a loopback
 * redirect may use any port (RFC 8252 section 7.3: a native app listens on a port it gets then).
 */
export function redirectUriMatches(registered: string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname)) return false;
  const withoutPort = (url: URL) => `${url.protocol}//${url.hostname}${url.pathname}${url.search}`;
  return registered.some((uri) => URL.canParse(uri) && withoutPort(new URL(uri)) === withoutPort(asked));
}

const redirectUris = z
  .array(z.string(), { required_error: 'redirect_uris is required', invalid_type_error: 'redirect_uris must be an array of URLs' })
  .min(1, 'redirect_uris must name at least one URL')
  .max(MAX_REDIRECT_URIS, `redirect_uris may name at most ${MAX_REDIRECT_URIS} URLs`);

/** The RFC 7591 fields this service reads; the others are accepted and ignored. */
const clientMetadata = z.object({
  redirect_uris: redirectUris,
  client_name: z.string().max(MAX_CLIENT_NAME, `client_name may have at most ${MAX_CLIENT_NAME} characters`).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
  scope: z.string().max(200).optional(),
});

export interface ClientMetadata {
  client_name: string;
  redirect_uris: string[];
}

/** A client's metadata, registered (RFC 7591) or from its document, checked; answers what is stored. */
export function checkClientMetadata(body: unknown): ClientMetadata {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidClientMetadata('the body must be a JSON object');
  const parsed = clientMetadata.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.');
    const message = issue.message.startsWith(String(issue.path[0])) ? issue.message : `${path}: ${issue.message}`;
    throw new OAuthProblem(issue.path[0] === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata', message);
  }
  const meta = parsed.data;
  for (const [i, uri] of meta.redirect_uris.entries()) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthProblem('invalid_redirect_uri', `redirect_uris[${i}] ${problem}`);
  }
  const unsupportedGrant = meta.grant_types?.find((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unsupportedGrant)
    throw invalidClientMetadata(`grant_types: ${unsupportedGrant} is not supported (authorization_code, refresh_token)`);
  const unsupportedResponse = meta.response_types?.find((r) => r !== 'code');
  if (unsupportedResponse) throw invalidClientMetadata(`response_types: ${unsupportedResponse} is not supported (code)`);
  const name = meta.client_name?.trim() || new URL(meta.redirect_uris[0]!).host;
  return { client_name: name, redirect_uris: meta.redirect_uris };
}

/** Whether a client id names a client metadata document: an https URL with a path. */
export const isDocumentClientId = (clientId: string) => /^https:\/\/[^/]+\/./.test(clientId) && URL.canParse(clientId);

/**
 * Fetches a client metadata document once: https, public addresses only (the webhooks' guard, at
 * connect time too), no redirects, at most MAX_DOCUMENT_BYTES within DOCUMENT_TIMEOUT_MS.
 * Throws an Error whose message says why it could not be used.
 */
export async function fetchClientDocument(clientId: string): Promise<ClientMetadata> {
  const url = new URL(clientId);
  checkLiteralAddress(url);
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      lookup: publicOnlyLookup,
      headers: { Accept: 'application/json' },
      timeout: DOCUMENT_TIMEOUT_MS,
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${DOCUMENT_TIMEOUT_MS / 1000} s`)), DOCUMENT_TIMEOUT_MS);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${DOCUMENT_TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return req.destroy(new Error(`it answered HTTP ${res.statusCode} (200 expected, redirects are not followed)`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) return req.destroy(new Error(`it is larger than ${MAX_DOCUMENT_BYTES} bytes`));
        chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
    req.end();
  });
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new Error('it is not JSON');
  }
  if ((document as { client_id?: unknown })?.client_id !== clientId) throw new Error('its client_id is not its own URL');
  try {
    return checkClientMetadata(document);
  } catch (err) {
    throw new Error(err instanceof OAuthProblem ? err.description : String(err));
  }
}
