// JSON-RPC batches on /mcp (a JSON array of messages). MCP had them in 2025-03-26 and removed them in
// 2025-06-18, so a batch is refused unless the request's revision predates that. Where one is allowed,
// its calls run one after the other, never at once, under one bound on the bytes of the whole answer
// and one on the time spent waiting (queue_command's `wait`, recall's `wait_ms`, screenshots; MIND_MCP_BATCH_WAIT): a batch
// costs at most what one large call costs, however many calls it holds.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { classifyInboundRequest, DEFAULT_NEGOTIATED_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { ToolResult } from './types.js';

/** The first revision without batches. Revision names are dates: they sort as text. */
const FIRST_REVISION_WITHOUT_BATCHES = '2025-06-18';
/** The per-request revision of the 2026 generation, which never had batches. */
const MODERN_REVISION = '2026-07-28';
/** Messages one batch may hold (the SDK would take 100): enough for a client's burst, not for a flood. */
export const MAX_BATCH_MESSAGES = 20;
/** The JSON-RPC error code of a call the batch's answer bound left out (the range JSON-RPC leaves to servers). */
export const ANSWER_TOO_LARGE_CODE = -32000;
const SSE_KEEP_ALIVE_MS = 15_000;

/** What a batch may still spend: shared by its calls, on either path. */
export interface BatchBudget {
  /** When waiting must be over (epoch ms), and how long it was (MIND_MCP_BATCH_WAIT). */
  waitUntil: number;
  waitMs: number;
}

/** A refusal of the whole batch: the HTTP status and the JSON-RPC error. */
export interface BatchRefusal {
  status: number;
  code: number;
  message: string;
}

/** One request of the batch, run: its JSON-RPC response as text (undefined: none), and what the log shows. */
export interface CallOutcome {
  text: string | undefined;
  tool?: string;
  isError?: boolean;
}

export type JsonRpcMessage = Record<string, unknown>;

/** Why this batch is refused as a whole, if it is; nothing in a refused batch runs. */
export function batchRefusal(headers: IncomingHttpHeaders, url: string, body: unknown[]): BatchRefusal | undefined {
  // Each call is served as a request of its own, which needs a URL: a Host that makes none is refused.
  if (!URL.canParse(`http://${headers.host ?? 'localhost'}${url}`)) {
    return { status: 400, code: -32600, message: 'Bad Request: the Host header is not a host name (and port): nothing was run' };
  }
  const header = headers['mcp-protocol-version'];
  // Without the header a server assumes 2025-03-26 (as the 2025-06-18 revision says, and the SDK does).
  const revision = typeof header === 'string' ? header.trim() : DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  if (revision !== MODERN_REVISION && !SUPPORTED_PROTOCOL_VERSIONS.includes(revision)) {
    const supported = [...SUPPORTED_PROTOCOL_VERSIONS, MODERN_REVISION].join(', ');
    return {
      status: 400,
      code: -32000,
      message: `Bad Request: Unsupported protocol version: ${revision} (supported versions: ${supported})`,
    };
  }
  if (revision >= FIRST_REVISION_WITHOUT_BATCHES) {
    return {
      status: 400,
      code: -32600,
      message: `Invalid Request: JSON-RPC batches are not part of MCP revision ${revision} (batching was removed in ${FIRST_REVISION_WITHOUT_BATCHES}): send each message in a POST of its own. Nothing in this batch was run.`,
    };
  }
  if (body.length > MAX_BATCH_MESSAGES) {
    return {
      status: 400,
      code: -32600,
      message: `Invalid Request: a batch holds at most ${MAX_BATCH_MESSAGES} messages, this one ${body.length}: split it into several POSTs. Nothing in this batch was run.`,
    };
  }
  const shape = classifyInboundRequest({ httpMethod: 'POST', body });
  if (shape.kind === 'reject') return { status: shape.httpStatus, code: shape.code, message: shape.message };
  if (body.some((message) => (message as JsonRpcMessage).method === 'initialize')) {
    return { status: 400, code: -32600, message: 'Invalid Request: initialize must be sent alone, not in a batch' };
  }
  const accept = headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' };
  }
  return undefined;
}

/** Writes a refusal as the SDK writes its JSON-RPC errors: about the whole POST, so `id: null`. */
export function refuseBatch(res: ServerResponse, refusal: BatchRefusal) {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: null });
  res.statusCode = refusal.status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** A request (it wants an answer), as JSON-RPC defines one: a method and an id. */
const isRequest = (message: JsonRpcMessage) =>
  typeof message.method === 'string' && (typeof message.id === 'string' || typeof message.id === 'number');

export interface BatchOptions {
  maxAnswerBytes: number;
  /** The time the whole batch may spend waiting (MIND_MCP_BATCH_WAIT). */
  waitMs: number;
  /** Runs one request by itself, as if it had been POSTed alone. */
  run: (message: JsonRpcMessage, budget: BatchBudget) => Promise<CallOutcome>;
  /** One log line per call. */
  log: (fields: Record<string, unknown>) => void;
  /** A call that failed unexpectedly (it is answered as a JSON-RPC internal error). */
  onUnexpected: (err: unknown) => void;
}

/**
 * Serves an allowed batch as the 2025 transport answers one: an event stream with one event per
 * answer. Calls run in order, one at a time; each answer is written before the next call starts, so
 * only one is held at once. Once the answers pass `maxAnswerBytes`, the rest get a JSON-RPC error
 * instead (not run). Notifications and posted responses get no answer, as in the SDK.
 */
export async function serveBatch(res: ServerResponse, messages: JsonRpcMessage[], options: BatchOptions) {
  const requests = messages.filter(isRequest);
  if (requests.length === 0) {
    res.statusCode = 202;
    return void res.end();
  }
  res.statusCode = 200;
  res.setHeader('connection', 'keep-alive');
  res.setHeader('content-type', 'text/event-stream');
  res.setHeader('x-accel-buffering', 'no');
  const keepAlive = setInterval(() => res.destroyed || res.write(': keepalive\n\n'), SSE_KEEP_ALIVE_MS).unref();
  const budget: BatchBudget = { waitUntil: Date.now() + options.waitMs, waitMs: options.waitMs };
  let written = 0;
  let full = false;
  try {
    for (const [index, message] of requests.entries()) {
      // A client that went away reads no more answers: the calls it sent after are not run.
      if (res.destroyed) break;
      const started = performance.now();
      let outcome: CallOutcome = full
        ? { text: tooLargeError(message.id, options.maxAnswerBytes, false), isError: true }
        : await runSafely(message, budget, options);
      const bytes = outcome.text === undefined ? 0 : Buffer.byteLength(outcome.text);
      if (!full && written + bytes > options.maxAnswerBytes) {
        full = true;
        outcome = { ...outcome, text: tooLargeError(message.id, options.maxAnswerBytes, true, bytes), isError: true };
      }
      const ms = Math.round((performance.now() - started) * 10) / 10;
      const name = (message.params as { name?: unknown } | undefined)?.name;
      options.log({
        batch_call: index,
        method: message.method,
        ...(outcome.tool ? { tool: outcome.tool } : typeof name === 'string' ? { tool: name.slice(0, 100) } : {}),
        is_error: outcome.isError === true,
        ...(full ? { left_out: true } : {}),
        ms,
      });
      if (outcome.text === undefined || res.destroyed) continue;
      written += Buffer.byteLength(outcome.text);
      if (!res.write(`event: message\ndata: ${outcome.text}\n\n`)) await drained(res);
    }
  } finally {
    clearInterval(keepAlive);
  }
  res.end();
}

/** Runs one call; an unexpected failure becomes its JSON-RPC internal error, and the batch goes on. */
async function runSafely(message: JsonRpcMessage, budget: BatchBudget, options: BatchOptions): Promise<CallOutcome> {
  try {
    return await options.run(message, budget);
  } catch (err) {
    options.onUnexpected(err);
    const error = { code: -32603, message: 'Internal server error' };
    return { text: JSON.stringify({ jsonrpc: '2.0', id: message.id, error }), isError: true };
  }
}

/** The answer of a call the batch's bound left out: a JSON-RPC error in the manner of a 413. */
function tooLargeError(id: unknown, limit: number, ran: boolean, bytes = 0): string {
  const how = 'send it on its own or in a smaller batch, or ask for less (a smaller limit, a page at a time)';
  const message = ran
    ? `This call ran, but its answer of ${bytes} bytes would take the batch's answer past its bound of ${limit} bytes (MIND_MCP_MAX_ANSWER_BYTES): ${how}.`
    : `Not run: the batch's answer reached its bound of ${limit} bytes (MIND_MCP_MAX_ANSWER_BYTES) before this call: ${how}.`;
  const data = { statusCode: 413, limit_bytes: limit, ran, ...(ran ? { answer_bytes: bytes } : {}) };
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: ANSWER_TOO_LARGE_CODE, message, data } });
}

/** Resolves when the answer's buffer has room again, or the client is gone. */
function drained(res: ServerResponse) {
  return new Promise<void>((resume) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resume();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/**
 * A call's arguments within the batch's wait budget: `wait` (seconds) and `wait_ms` no longer than
 * what is left of it. Values that are no numbers stay as they are, for the route to refuse.
 */
export function withinWaitBudget(args: Record<string, unknown>, budget: BatchBudget): Record<string, unknown> {
  const leftMs = Math.max(0, budget.waitUntil - Date.now());
  const clamped = { ...args };
  if (typeof args.wait === 'number' && Number.isInteger(args.wait) && args.wait > 0) {
    clamped.wait = Math.min(args.wait, Math.floor(leftMs / 1000));
  }
  const waitMs = typeof args.wait_ms === 'string' && /^\d+$/.test(args.wait_ms) ? Number(args.wait_ms) : args.wait_ms;
  if (typeof waitMs === 'number' && Number.isInteger(waitMs) && waitMs > 0) clamped.wait_ms = Math.min(waitMs, leftMs);
  return clamped;
}

/** Whether the batch's wait budget is spent: a call that can only wait (a screenshot) is then not run. */
export const waitSpent = (budget: BatchBudget) => Date.now() >= budget.waitUntil;

/** A call that would only wait, once the batch's wait budget is spent: a tool error that says what to do. */
export function waitSpentResult(tool: string, budget: BatchBudget): ToolResult {
  const text = `Not run: this batch spent its ${budget.waitMs / 1000} s of waiting (MIND_MCP_BATCH_WAIT) before ${tool}, which waits for the computer's agent: call it on its own.`;
  return { isError: true, content: [{ type: 'text', text }] };
}
