// The few facts about JSON-RPC messages the bridge needs, and the HTTP headers the MCP Streamable HTTP
// transport derives from them (as the official clients send them, checked by the official server).

export type JsonRpcId = string | number;

/** A JSON-RPC message as read: nothing is trusted until looked at. */
export interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** Implementation-defined JSON-RPC error codes of the bridge (the -32000..-32099 range). */
export const BRIDGE_ERROR = {
  /** The service answered the HTTP request with an error (401, 403, 413, 503...); data: its error object. */
  refused: -32010,
  /** The service could not be reached, or broke the connection before answering; data: the URL. */
  unreachable: -32011,
  /** MIND_URL or MIND_KEY is missing or unusable; the message names it and says what to set. */
  unconfigured: -32012,
  /** A line on stdin was not JSON (JSON-RPC's own code). */
  parse: -32700,
} as const;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A request (it expects an answer), not a notification or a response. */
export function isRequest(message: JsonRpcMessage): message is JsonRpcMessage & { method: string; id: JsonRpcId } {
  return typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number');
}

export function isResponse(message: unknown): message is JsonRpcMessage {
  return isObject(message) && message.jsonrpc === '2.0' && ('result' in message || 'error' in message);
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

const PROTOCOL_VERSION_META_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The field each method's `Mcp-Name` header mirrors (2026-07-28). */
const NAME_SOURCE: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The headers a request's body determines. 2026-07-28 requests name their revision in
 * `params._meta`; the server wants it again as `MCP-Protocol-Version`, the method as `Mcp-Method` and
 * the tool's (or resource's) name as `Mcp-Name`, and refuses a request where they disagree.
 */
export function bodyHeaders(message: JsonRpcMessage): Record<string, string> | undefined {
  if (!isRequest(message) || !isObject(message.params)) return undefined;
  const meta = message.params._meta;
  const version = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  if (typeof version !== 'string') return undefined;
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': message.method };
  const field = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  const name = field === undefined ? undefined : message.params[field];
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

const BASE64_PREFIX = '=?base64?';
const BASE64_SUFFIX = '?=';

/** A value as an HTTP header carries it: plain printable ASCII as it is, anything else as `=?base64?...?=`. */
function headerValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    /^[\t\x20-\x7e]*$/.test(value) &&
    !(value.startsWith(BASE64_PREFIX) && value.endsWith(BASE64_SUFFIX));
  return plain ? value : `${BASE64_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${BASE64_SUFFIX}`;
}
