// `mind-mcp`'s bridge: MCP over stdio on one side (newline-delimited JSON-RPC), the service's `/mcp`
// (Streamable HTTP) on the other. Each line read is POSTed as it is; each JSON-RPC message of the answer,
// whether plain JSON or server-sent events, is written back as one line. The headers are the ones the
// official HTTP clients send, for the 2025 revisions (after `initialize`) and for 2026-07-28 (from each
// request's `_meta`). No GET stream is opened: the service is stateless and has nothing to push.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import {
  BRIDGE_ERROR,
  bodyHeaders,
  errorResponse,
  isObject,
  isRequest,
  isResponse,
  type JsonRpcId,
  type JsonRpcMessage,
} from './messages.js';
import { sseMessages } from './sse.js';

export interface BridgeOptions {
  /** The service's `/mcp` URL. */
  endpoint: URL;
  /** Sent as `Authorization: Bearer`; never written anywhere. */
  mindKey: string;
  userAgent: string;
  input: Readable;
  /** Writes one JSON-RPC message as one line (stdout). */
  send: (line: string) => void;
  /** Diagnostics for a human (stderr). */
  report: (text: string) => void;
}

export class StdioBridge {
  /** Set by a 2025 `initialize` answer or a 2026 request's `_meta`; sent with messages that do not name one. */
  private protocolVersion: string | undefined;
  /** Only if the service ever hands one out (it is stateless today). */
  private sessionId: string | undefined;
  private readonly initializeIds = new Set<JsonRpcId>();
  /** Requests on their way, by id, so `notifications/cancelled` can abort one. */
  private readonly inFlight = new Map<JsonRpcId, AbortController>();

  constructor(private readonly options: BridgeOptions) {}

  /** Serves until the input ends, then resolves once every request read has its answer. */
  async run(): Promise<void> {
    const pending = new Set<Promise<void>>();
    for await (const line of createInterface({ input: this.options.input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (line.trim() === '') continue;
      const work = this.forward(line).finally(() => pending.delete(work));
      pending.add(work);
    }
    await Promise.all(pending);
  }

  private async forward(line: string): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(line);
    } catch {
      this.write(errorResponse(null, BRIDGE_ERROR.parse, 'Parse error: a line on stdin is not JSON'));
      return;
    }
    const messages = (Array.isArray(body) ? body : [body]).filter(isObject) as JsonRpcMessage[];
    for (const message of messages) {
      if (message.method === 'notifications/cancelled' && isObject(message.params)) {
        this.inFlight.get(message.params.requestId as JsonRpcId)?.abort();
      }
    }
    const requests = messages.filter(isRequest);
    const unanswered = new Set(requests.map((r) => r.id));
    const controller = new AbortController();
    for (const request of requests) {
      this.inFlight.set(request.id, controller);
      if (request.method === 'initialize') this.initializeIds.add(request.id);
    }
    try {
      await this.post(line, messages, unanswered, controller.signal);
    } catch (err) {
      // The answer broke off half-way (or was not what it said it was).
      if (!controller.signal.aborted)
        this.fail(unanswered, BRIDGE_ERROR.unreachable, `The answer from ${this.endpoint} broke off: ${reason(err)}`);
    } finally {
      for (const request of requests) this.inFlight.delete(request.id);
    }
    // A request cancelled by the client gets no answer; any other must get one, or the client waits for ever.
    if (!controller.signal.aborted)
      this.fail(unanswered, BRIDGE_ERROR.unreachable, `${this.endpoint} answered without a reply to this request`);
  }

  private async post(line: string, messages: JsonRpcMessage[], unanswered: Set<JsonRpcId>, signal: AbortSignal) {
    const handshake = messages.some((m) => m.method === 'initialize');
    let response: Response;
    try {
      response = await fetch(this.options.endpoint, { method: 'POST', headers: this.headersFor(messages, handshake), body: line, signal });
    } catch (err) {
      if (signal.aborted) return;
      const message = `Cannot reach ${this.endpoint}: ${reason(err)}`;
      this.options.report(`mind-mcp: ${message}`);
      this.fail(unanswered, BRIDGE_ERROR.unreachable, message, { url: this.endpoint });
      return;
    }
    if (handshake && response.ok) this.sessionId = response.headers.get('mcp-session-id') ?? undefined;
    if (!response.ok) return this.refused(response, unanswered);
    const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type === 'text/event-stream' && response.body) {
      for await (const data of sseMessages(response.body)) this.deliver(JSON.parse(data), unanswered);
    } else if (type === 'application/json') {
      this.deliver(await response.json(), unanswered);
    } else {
      // 202 for notifications and responses: nothing to say.
      await response.body?.cancel();
    }
  }

  /** An HTTP error: the server's JSON-RPC answer if it gave one, else a JSON-RPC error with its message. */
  private async refused(response: Response, unanswered: Set<JsonRpcId>) {
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const answers = (Array.isArray(body) ? body : [body]).filter(isResponse);
    // Our error object (401: no or wrong Mind Key, 403: a disabled mind, 413, 429, 503...), or the
    // protocol layer's JSON-RPC refusal (a header that disagrees with the body, an unknown session).
    const message =
      answers[0] !== undefined
        ? errorMessageOf(answers[0])
        : isObject(body) && typeof body.message === 'string'
          ? body.message
          : `HTTP ${response.status} ${response.statusText}${text ? `: ${text.slice(0, 200)}` : ''}`;
    this.options.report(`mind-mcp: ${this.endpoint} answered ${response.status}: ${message}`);
    if (answers.length === 0) {
      this.fail(unanswered, BRIDGE_ERROR.refused, message, isObject(body) ? body : { statusCode: response.status });
      return;
    }
    for (const answer of answers) {
      // Without an id it is about this POST: the answer of each request in it.
      if (answer.id === null || answer.id === undefined) this.fail(unanswered, errorCodeOf(answer), errorMessageOf(answer), answer.error);
      else this.deliver(answer, unanswered);
    }
  }

  /** Writes what the service answered, noting the revision an `initialize` settled on. */
  private deliver(answer: unknown, unanswered: Set<JsonRpcId>) {
    for (const message of Array.isArray(answer) ? answer : [answer]) {
      if (isResponse(message)) {
        const id = message.id as JsonRpcId;
        unanswered.delete(id);
        if (this.initializeIds.delete(id) && isObject(message.result) && typeof message.result.protocolVersion === 'string') {
          this.protocolVersion = message.result.protocolVersion;
        }
      }
      this.write(message);
    }
  }

  private fail(ids: Set<JsonRpcId>, code: number, message: string, data?: unknown) {
    for (const id of ids) {
      this.initializeIds.delete(id);
      this.write(errorResponse(id, code, message, data));
    }
    ids.clear();
  }

  private headersFor(messages: JsonRpcMessage[], handshake: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.options.mindKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'user-agent': this.options.userAgent,
    };
    // `initialize` names its revision in the body and starts afresh: no session, no revision header.
    if (handshake) return headers;
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    const derived = messages.length === 1 && messages[0] ? bodyHeaders(messages[0]) : undefined;
    if (derived) this.protocolVersion = derived['mcp-protocol-version'];
    if (this.protocolVersion) headers['mcp-protocol-version'] = this.protocolVersion;
    return { ...headers, ...derived };
  }

  private write(message: unknown) {
    this.options.send(JSON.stringify(message));
  }

  private get endpoint() {
    return this.options.endpoint.href;
  }
}

function errorCodeOf(answer: JsonRpcMessage): number {
  return isObject(answer.error) && typeof answer.error.code === 'number' ? answer.error.code : BRIDGE_ERROR.refused;
}

function errorMessageOf(answer: JsonRpcMessage): string {
  return isObject(answer.error) && typeof answer.error.message === 'string' ? answer.error.message : 'The service refused the request';
}

/** An error's message, with the cause fetch hides behind "fetch failed" (ECONNREFUSED...). */
function reason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? err.cause.message : undefined;
  return cause ? `${err.message} (${cause})` : err.message;
}
