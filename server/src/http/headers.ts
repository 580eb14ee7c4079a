import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import helmet from 'helmet';

type Header = [name: string, value: string | number | readonly string[]];

/** The headers a helmet middleware sets, read once: setting them from a list costs less per request than running it. */
function headersOf(middleware: ReturnType<typeof helmet>): Header[] {
  const headers: Header[] = [];
  const res = { setHeader: (name: string, value: Header[1]) => void headers.push([name, value]), removeHeader: () => undefined };
  middleware({} as never, res as never, () => undefined);
  return headers;
}

/** API answers are JSON (or a PNG) for programs: no framing, no sniffing, no caching (they may carry a Mind Key or a JWT). */
const API_HEADERS: Header[] = [
  ...headersOf(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      xFrameOptions: { action: 'deny' },
      // What only a document a browser shows needs, answers to programs go without (fewer bytes on every answer).
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      strictTransportSecurity: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  ),
  ['Cache-Control', 'no-store'],
];

/** The guides and Swagger UI: their own scripts, styles and images only (Swagger UI's inline styles and data: images allowed). */
const DOCS_HEADERS: Header[] = headersOf(
  helmet({
    contentSecurityPolicy: {
      directives: {
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        // The service is often reached over plain http on localhost; TLS is the reverse proxy's business.
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
  }),
);

const setAll = (res: ServerResponse, headers: Header[]) => {
  for (const [name, value] of headers) res.setHeader(name, value);
};
export const setApiHeaders = (res: ServerResponse) => setAll(res, API_HEADERS);
export const setDocsHeaders = (res: ServerResponse) => setAll(res, DOCS_HEADERS);

/**
 * What MCP clients in a browser send to /mcp besides the credential and the JSON: the revision, the
 * method and the tool's name (2026-07-28), the session and the last event seen (2025 revisions).
 */
const MCP_REQUEST_HEADERS = ['Mcp-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'Mcp-Session-Id', 'Last-Event-Id'];
/** What they read of an answer: the session and revision (2025 revisions), and a 401's challenge. */
const MCP_RESPONSE_HEADERS = ['Mcp-Session-Id', 'Mcp-Protocol-Version', 'WWW-Authenticate'];

/**
 * CORS for the browser origins an operator lists (MIND_CORS_ORIGINS); off when none are. Answers a
 * listed origin's preflight itself (true: the request is done); on its other requests it adds the
 * headers and returns false. Requests from other origins get no CORS header at all.
 */
export function corsFor(origins: string[]): (req: IncomingMessage, res: ServerResponse) => boolean {
  if (origins.length === 0) return () => false;
  const middleware = cors({
    origin: origins.includes('*') ? '*' : origins,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'If-Match', 'If-None-Match', ...MCP_REQUEST_HEADERS],
    exposedHeaders: [
      'X-Request-Id',
      'ETag',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Retry-After',
      ...MCP_RESPONSE_HEADERS,
    ],
    maxAge: 600,
  });
  return (req, res) => {
    // Only a listed origin gets CORS headers; another's preflight is an OPTIONS like any (204 with Allow).
    const origin = req.headers.origin;
    if (origin === undefined || !(origins.includes('*') || origins.includes(origin))) return false;
    let passed = false;
    // With a fixed list of origins the cors package decides synchronously.
    middleware(req as never, res as never, () => (passed = true));
    return !passed;
  };
}

// A host name (letters, digits and the RFC 3986 reg-name characters), an IPv4 address or a bracketed
// IPv6 address, then an optional port.
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[\w.~%!$&'()*+,;=-]+)(?::(\d{1,5}))?$/;

/**
 * Whether a request's Host header can stand in a URL: the MCP transport, Express and the redirects
 * build URLs from it, and a header they cannot parse (`a b`, `x:99999`) was a 500. No header at all
 * is fine (HTTP/1.0; Node refuses an HTTP/1.1 request without one).
 */
export function isValidHost(host: string | undefined): boolean {
  if (host === undefined || hostsSeenValid.has(host)) return true;
  const match = HOST.exec(host);
  if (!match) return false;
  const port = match[1] === undefined ? undefined : Number(match[1]);
  if (port !== undefined && (port < 1 || port > 65535)) return false;
  if (!URL.canParse(`http://${host}/`)) return false;
  if (hostsSeenValid.size >= HOSTS_REMEMBERED) hostsSeenValid.clear();
  hostsSeenValid.add(host);
  return true;
}

/** A service is reached under a handful of names: those are checked once, not on every request. */
const HOSTS_REMEMBERED = 64;
const hostsSeenValid = new Set<string>();
