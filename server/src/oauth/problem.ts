import type { ServerResponse } from 'node:http';

/**
 * An error of /oauth/token or /oauth/register: RFC 6749 section 5.2 and RFC 7591 section 3.2.2 JSON
 * (`{error, error_description}`), the format OAuth clients read, not the service's error object.
 */
export class OAuthProblem extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

export const invalidRequest = (description: string) => new OAuthProblem('invalid_request', description);
export const invalidGrant = (description: string) => new OAuthProblem('invalid_grant', description);
export const invalidClientMetadata = (description: string) => new OAuthProblem('invalid_client_metadata', description);

/** A JSON answer that no cache keeps (tokens, and the errors about them). */
export function sendOAuthJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

export function sendProblem(res: ServerResponse, problem: OAuthProblem): void {
  sendOAuthJson(res, problem.status, { error: problem.error, error_description: problem.description }, problem.headers);
}
