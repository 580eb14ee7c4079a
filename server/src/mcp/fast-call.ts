import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { McpTool, ToolResult } from './types.js';

/**
 * The common case of `/mcp` answered without the SDK: ONE `tools/call` of a known tool, in the form
 * the official clients send it, whose answer (status, headers, bytes) is known exactly. The SDK serves
 * a request with a fresh server, transport and web Request/Response each (about 650 µs of CPU, three
 * times a whole REST call); a call on this path costs 1.5 to 1.7 times `GET /mind/tasks`
 * (docs/performance.md). It takes a request only when every check the SDK would make is known to
 * pass, and writes what the SDK would write for it; anything else (other methods, batches,
 * notifications, errors of the protocol, unusual `_meta`, headers or Accept) stays with the SDK.
 * server/test/mcp.fast-path.test.ts sends the same requests both ways and compares the answers byte
 * for byte.
 */
export interface FastCall {
  id: string | number;
  tool: McpTool;
  args: Record<string, unknown>;
  /** 2026-07-28 (the envelope in `_meta`): one JSON answer. Else a 2025 revision: one server-sent event. */
  modern: boolean;
}

/** Set on a request, in-process only (a client cannot), to have the SDK serve it: how the test compares both paths. */
export const SDK_ONLY = Symbol('mcp: served by the SDK');

/** The per-request revision the SDK serves (its SUPPORTED_MODERN_PROTOCOL_VERSIONS, not exported). */
const MODERN_REVISION = '2026-07-28';
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);
/** The envelope's keys, which the SDK lifts out of `_meta` before the handler: other keys go to the SDK. */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY]);
const SSE_KEEP_ALIVE_MS = 15_000;

/** The call if the fast path can answer this request exactly as the SDK would; else undefined. */
export function fastCallOf(
  req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
  body: unknown,
  tools: ReadonlyMap<string, McpTool>,
): FastCall | undefined {
  const { headers } = req;
  if (req.method !== 'POST' || !isJsonContentType(headers['content-type'])) return undefined;
  // The SDK's adapter builds a web Request from the URL; one it cannot build is its 500.
  if (!URL.canParse(`http://${headers.host ?? 'localhost'}${req.url ?? '/'}`)) return undefined;
  if (!isObject(body) || !hasOnlyKeys(body, REQUEST_KEYS) || body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const { id, params } = body;
  if (!isObject(params) || !isRequestId(id) || !hasOnlyKeys(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  const tool = tools.get(params.name);
  const args = params.arguments === undefined ? {} : params.arguments;
  // The SDK's record check drops an own `__proto__`; such arguments go to it.
  if (!tool || !isObject(args) || Object.hasOwn(args, '__proto__')) return undefined;

  const protocolVersion = headers['mcp-protocol-version'];
  const meta = params._meta;
  if (meta === undefined) {
    // No envelope claim and (below) a 2025 revision's header or none: the SDK's classifier routes it to
    // the 2025 transport, which checks the revision and Accept as here and answers by an event stream.
    const legacy =
      (protocolVersion === undefined ||
        (typeof protocolVersion === 'string' &&
          protocolVersion < MODERN_REVISION &&
          SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))) &&
      typeof headers.accept === 'string' &&
      headers.accept.includes('application/json') &&
      headers.accept.includes('text/event-stream');
    return legacy ? { id, tool, args, modern: false } : undefined;
  }
  // 2026-07-28: the envelope's revision, the headers the SDK requires equal to the body (as clients
  // send them: no Base64 form), the envelope's keys alone in `_meta` (others would reach the handler).
  const modern =
    isObject(meta) &&
    meta[PROTOCOL_VERSION_META_KEY] === MODERN_REVISION &&
    protocolVersion === MODERN_REVISION &&
    headers['mcp-method'] === 'tools/call' &&
    headers['mcp-name'] === params.name &&
    hasOnlyKeys(meta, ENVELOPE_KEYS) &&
    isValidEnvelope(meta, body);
  return modern ? { id, tool, args, modern: true } : undefined;
}

/**
 * Whether the SDK's classifier takes this envelope (client info and capabilities as its schema
 * wants them). A client sends the same envelope with every call, so each one's verdict is kept,
 * by its JSON text: the classifier's guards cost about as much as the rest of this file.
 */
function isValidEnvelope(meta: Record<string, unknown>, body: Record<string, unknown>) {
  const key = JSON.stringify(meta);
  if (validEnvelopes.has(key)) return true;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: MODERN_REVISION,
    mcpMethodHeader: 'tools/call',
    body,
  });
  if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== MODERN_REVISION) return false;
  if (validEnvelopes.size >= MAX_ENVELOPES) validEnvelopes.clear();
  validEnvelopes.add(key);
  return true;
}

const validEnvelopes = new Set<string>();
const MAX_ENVELOPES = 256;

/**
 * Runs the call and writes its answer as the SDK (through `nodeMcpHandler`) writes it: 2026-07-28 one
 * JSON body with its length; 2025 one server-sent event on a stream whose headers are set before the
 * tool runs, with the SDK's keep-alive comment every 15 s while it runs.
 */
export async function serveFastCall(res: ServerResponse, call: FastCall, run: () => Promise<ToolResult>, serverInfo: object) {
  if (call.modern) {
    // The SDK does not dispatch a request whose client has gone (its answer, 499, reaches no one).
    if (res.destroyed) {
      res.statusCode = 499;
      return void res.end();
    }
    const answer = answerOf(call, await run(), serverInfo);
    res.statusCode = 200;
    res.setHeader('content-type', 'application/json');
    res.setHeader('Content-Length', Buffer.byteLength(answer));
    return void res.end(answer);
  }
  res.statusCode = 200;
  res.setHeader('connection', 'keep-alive');
  res.setHeader('content-type', 'text/event-stream');
  res.setHeader('x-accel-buffering', 'no');
  const keepAlive = setInterval(() => res.destroyed || res.write(': keepalive\n\n'), SSE_KEEP_ALIVE_MS).unref();
  let result: ToolResult;
  try {
    result = await run();
  } finally {
    clearInterval(keepAlive);
  }
  if (res.destroyed) return;
  res.write(`event: message\ndata: ${answerOf(call, result, serverInfo)}\n\n`);
  res.end();
}

/**
 * The JSON-RPC answer's text, as the SDK writes it: `{ result, jsonrpc, id }`, the result's content
 * blocks with their keys in the result schema's order, then `isError`, then (2026-07-28) stamped with
 * `resultType` and the server's identity.
 */
export function answerOf(call: FastCall, result: ToolResult, serverInfo: object): string {
  const content: unknown[] = result.content.map((block) =>
    block.type === 'text' ? { type: 'text', text: block.text } : { type: 'image', data: block.data, mimeType: block.mimeType },
  );
  let json = `{"content":${JSON.stringify(content)}`;
  if (result.isError !== undefined) json += `,"isError":${JSON.stringify(result.isError)}`;
  if (call.modern) json += `,"resultType":"complete","_meta":${JSON.stringify({ [SERVER_INFO_META_KEY]: serverInfo })}`;
  return `{"result":${json}},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON-RPC request id as the SDK's schema takes it: a string or a (safe) integer. */
const isRequestId = (value: unknown): value is string | number =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

function hasOnlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>) {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}
