import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyLimitOf, contract, DEFAULT_BODY_LIMIT, listRoutes } from '@mindservice/contract';
import { API_VERSION } from '@mindservice/contract/openapi';
import { type AuthInfo, createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import type { Authenticator } from '../http/auth.js';
import { hasBody, readJsonBody } from '../http/body.js';
import type { MindCaller } from '../http/caller.js';
import type { RawRequest } from '../http/request.js';
import type { ApiRequest } from '../http/request.js';
import {
  type BatchBudget,
  batchRefusal,
  type CallOutcome,
  type JsonRpcMessage,
  refuseBatch,
  serveBatch,
  waitSpent,
  waitSpentResult,
  withinWaitBudget,
} from './batch.js';
import { answerOf, fastCallOf, SDK_ONLY, serveFastCall } from './fast-call.js';
import { answerTextOf, bodilessRequest, nodeMcpHandler } from './node-http.js';
import { buildTools, errorResultOf, type Invoke, type McpTool, resultBytes, runTool, type ToolResult, tooLargeResult } from './tools.js';

const SERVER_INFO = { name: 'mind-service', version: API_VERSION };
const INSTRUCTIONS =
  "Tools for one mind of Mind Service: its memories (store, recall, update), tasks, chat, scripts and remote computers. Every tool acts on the mind whose Mind Key authenticated this connection; ids of another mind's data are not found.";

/** What a tool call needs of its HTTP request, passed to the per-request MCP server as `authInfo.extra`. */
interface CallContext {
  caller: MindCaller;
  req: ApiRequest & Pick<RawRequest, 'logFields'>;
  res: ServerResponse;
  /** Set for a call of a batch: what the batch may still spend; then `outcome` tells the batch's log. */
  budget?: BatchBudget;
  outcome?: Omit<CallOutcome, 'text'>;
}

/** The route that always waits for an agent (up to MIND_SCREENSHOT_WAIT). */
const SCREENSHOT_ROUTE = 'computers.screenshot';

export interface McpEndpointOptions {
  authenticator: Authenticator;
  invoke: Invoke;
  ipOf: (req: IncomingMessage) => string;
  onUnexpected: (err: unknown, req: RawRequest) => void;
  /** The `WWW-Authenticate` of a 401; `presented`: a credential was sent (and refused). */
  challenge: (presented: boolean) => string;
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, both generations (the 2025 revisions with
 * `initialize`, served statelessly, and 2026-07-28), by the official SDK's `createMcpHandler`; the
 * common `tools/call` is answered beside it, byte for byte as the SDK would (fast-call.ts). The Mind
 * Key is checked by the one authenticator before any JSON-RPC is read; each tool call runs its
 * contract route through the pipeline (`invoke`) as that mind.
 */
export function mcpEndpoint(ctx: AppContext, options: McpEndpointOptions) {
  const tools = buildTools();
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const definitions = tools.map((tool) => tool.definition);
  // The largest body any tool's route reads, so a call can carry what the route itself would take.
  const bodyLimit = Math.max(
    DEFAULT_BODY_LIMIT,
    ...listRoutes(contract)
      .filter((r) => tools.some((t) => t.key === r.key))
      .map((r) => bodyLimitOf(r.route)),
  );
  const reportSdkError = (err: Error) => ctx.log.debug({ err }, 'mcp: request refused by the protocol layer');

  const maxAnswerBytes = ctx.config.mcpMaxAnswerBytes;

  /** A tool's result for a call, by either path: a failure is a result with `isError`; one past the answer bound too. */
  const callTool = async (tool: McpTool, args: Record<string, unknown>, call: CallContext): Promise<ToolResult> => {
    let result: ToolResult;
    const { budget } = call;
    if (budget && tool.key === SCREENSHOT_ROUTE && waitSpent(budget)) result = waitSpentResult(tool.definition.name, budget);
    else {
      try {
        result = await runTool(tool, budget ? withinWaitBudget(args, budget) : args, options.invoke, call.caller, call.req, call.res);
        const bytes = resultBytes(result);
        if (bytes > maxAnswerBytes) result = tooLargeResult(tool, bytes, maxAnswerBytes);
      } catch (err) {
        result = errorResultOf(err, (unexpected) => options.onUnexpected(unexpected, call.req), ctx.config.publicUrl);
      }
    }
    const outcome = { tool: tool.definition.name, isError: result.isError === true };
    if (budget) call.outcome = outcome;
    else call.req.logFields = { tool: outcome.tool, is_error: outcome.isError };
    return result;
  };

  const serverFor = (authInfo: AuthInfo | undefined) => {
    const call = authInfo?.extra as CallContext | undefined;
    const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
    server.setRequestHandler('tools/list', () => ({ tools: definitions }));
    server.setRequestHandler('tools/call', async (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool ${request.params.name}; tools/list names them`);
      if (!call) throw new ProtocolError(ProtocolErrorCode.InternalError, 'No caller for this request');
      return server.projectCallToolResult(await callTool(tool, request.params.arguments ?? {}, call), undefined);
    });
    return server;
  };

  const handler = createMcpHandler(({ authInfo }) => serverFor(authInfo), {
    legacy: 'stateless',
    maxRequestBodySize: bodyLimit,
    onerror: reportSdkError,
  });
  const serveMcp = nodeMcpHandler(handler.fetch, { maxRequestBodySize: bodyLimit, onerror: reportSdkError });
  // A closed handler answers every request with its 500; the fast path leaves them to it.
  let closed = false;
  ctx.onClose(() => {
    closed = true;
    return handler.close();
  });

  async function serve(req: RawRequest, res: ServerResponse) {
    const request = req as CallContext['req'] & { auth?: AuthInfo };
    request.ip = options.ipOf(req);
    request.query = {};
    let caller: MindCaller;
    try {
      // The header only: a Mind Key in the URL would end up in client logs and histories.
      caller = (await options.authenticator.authenticate({ headers: req.headers, ip: request.ip }, res, 'mindKey')) as MindCaller;
    } catch (err) {
      if (hasBody(req)) res.setHeader('Connection', 'close');
      if (!(err instanceof ApiError) || err.statusCode !== 401) throw err;
      // RFC 9728: the challenge names the metadata that leads an OAuth client to a token (docs/mcp.md).
      res.setHeader('WWW-Authenticate', options.challenge(req.headers.authorization !== undefined));
      // The authenticator's hint names `?key=` too, which /mcp does not take.
      const hint =
        req.headers.authorization === undefined ? 'this endpoint needs the Mind Key as `Authorization: Bearer mk_...`' : undefined;
      throw hint ? new ApiError(401, err.message, { ...err.extra, details: [{ path: 'headers.authorization', message: hint }] }) : err;
    }
    const isJson = /^application\/(?:[\w.+-]+\+)?json\b/i.test(req.headers['content-type'] ?? '');
    const parsed = req.method === 'POST' && isJson ? await readJsonBody(request, res, bodyLimit) : undefined;
    if (Array.isArray(parsed) && !closed) {
      const refusal = batchRefusal(req.headers, req.url ?? '/', parsed);
      if (refusal) return refuseBatch(res, refusal);
      request.logFields = { batch: parsed.length };
      return serveBatch(res, parsed as JsonRpcMessage[], {
        maxAnswerBytes,
        waitMs: ctx.config.mcpBatchWaitMs,
        run: (message, budget) => runOne(message, { caller, req: request, res, budget }),
        log: (fields) => ctx.log.info({ req_id: req.requestId, ...fields }, 'mcp batch call'),
        onUnexpected: (err) => options.onUnexpected(err, req),
      });
    }
    const fast = closed || SDK_ONLY in req ? undefined : fastCallOf(req, parsed, byName);
    if (fast) return serveFastCall(res, fast, () => callTool(fast.tool, fast.args, { caller, req: request, res }), SERVER_INFO);
    request.auth = authInfoOf({ caller, req: request, res });
    await serveMcp(request, res, parsed);
  }

  /** One request of a batch, answered as if it had come alone: by the fast path when it can, else by the SDK. */
  async function runOne(message: JsonRpcMessage, call: CallContext): Promise<CallOutcome> {
    const fast = SDK_ONLY in call.req ? undefined : fastCallOf(call.req, message, byName);
    if (fast) {
      const result = await callTool(fast.tool, fast.args, call);
      return { text: answerOf(fast, result, SERVER_INFO), ...call.outcome };
    }
    const abort = new AbortController();
    const onClose = () => abort.abort();
    call.res.once('close', onClose);
    try {
      const response = await handler.fetch(bodilessRequest(call.req, abort.signal), { authInfo: authInfoOf(call), parsedBody: message });
      return { text: await answerTextOf(response), ...call.outcome };
    } finally {
      call.res.off('close', onClose);
    }
  }

  const authInfoOf = (call: CallContext): AuthInfo => ({
    token: 'mind-key',
    clientId: call.caller.mindId,
    scopes: [],
    extra: call as never,
  });

  return (req: RawRequest, res: ServerResponse, onError: (err: unknown) => void) => {
    serve(req, res).catch(onError);
  };
}
