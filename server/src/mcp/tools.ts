import type { ServerResponse } from 'node:http';
import { contract, isIdempotent, isWrite, listRoutes } from '@mindservice/contract';
import { buildOpenApiDocument } from '@mindservice/contract/openapi';
import { apiErrorOf, errorBody, internalError } from '../http/errors.js';
import type { MindCaller } from '../http/caller.js';
import type { RouteAnswer } from '../http/pipeline.js';
import type { ApiRequest } from '../http/request.js';
import { inToolTerms, routeInputOf } from './arguments.js';
import { inputOf, type OpenApiOperation } from './schemas.js';
import { screenOf, screenshotResult, withoutPng } from './screen.js';
import { MCP_TOOLS, type RouteKey, toolName } from './table.js';
import type { Invoke, McpTool, ToolDefinition, ToolResult } from './types.js';
import { addWait, awaitCommand, waitOf } from './wait.js';
import { TOOL_TEXT } from './wording.js';

export type { Invoke, McpTool, ToolDefinition, ToolResult } from './types.js';

type Schema = Record<string, unknown>;

/** Every tool of MCP_TOOLS, built once from the contract and its OpenAPI document. */
export function buildTools(): McpTool[] {
  const document = buildOpenApiDocument() as unknown as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    components?: { schemas?: Record<string, Schema> };
  };
  const components = document.components?.schemas ?? {};
  const tools: McpTool[] = [];
  for (const { key, name, route } of listRoutes(contract)) {
    const effect = MCP_TOOLS[key as RouteKey];
    if (effect === undefined) throw new Error(`route ${key} is not classified in MCP_TOOLS`);
    if (typeof effect !== 'string') continue;
    // A `read` Mind Key may call exactly the tools marked read-only: the route's metadata decides.
    if ((effect === 'read') === isWrite(route)) throw new Error(`route ${key}: MCP_TOOLS says ${effect}, its contract metadata disagrees`);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const operation = document.paths[path]?.[route.method.toLowerCase()];
    if (!operation) throw new Error(`route ${key} is not in the OpenAPI document`);
    const text = TOOL_TEXT[key as RouteKey];
    if (!text) throw new Error(`route ${key} is a tool without its text in wording.ts`);
    const input = inputOf(path, operation, components);
    for (const [name, words] of Object.entries(text.args ?? {})) describe(input.schema, name, words, key);
    const description = text.description;
    tools.push({
      key,
      places: input.places,
      definition: {
        name: toolName(name),
        title: route.summary,
        description,
        inputSchema: input.schema as ToolDefinition['inputSchema'],
        annotations: {
          title: route.summary,
          readOnlyHint: effect === 'read',
          destructiveHint: effect === 'delete',
          idempotentHint: effect === 'read' || isIdempotent(route),
          // Acts on this service's own data only.
          openWorldHint: false,
        },
      },
    });
  }
  addWait(tools);
  return tools;
}

/** Sets the description of argument `name` (`payload.x`: a field of an object argument) to `words`. */
function describe(schema: Schema, name: string, words: string, key: string) {
  const [first, ...rest] = name.split('.');
  const properties = schema.properties as Record<string, Schema> | undefined;
  const property = first === undefined ? undefined : properties?.[first];
  if (!property || !properties || first === undefined)
    throw new Error(`wording.ts describes ${name}, which the tool of ${key} does not take`);
  if (rest.length) describe(property, rest.join('.'), words, key);
  else properties[first] = { ...property, description: words };
}

/** Runs a tool call: its arguments to the route's request, the route through the pipeline, the answer as a tool result. */
export async function runTool(
  tool: McpTool,
  args: Record<string, unknown>,
  invoke: Invoke,
  caller: MindCaller,
  req: ApiRequest,
  res: ServerResponse,
) {
  const { wait, ...routeArgs } = args;
  const seconds = tool.waits ? waitOf(wait) : 0;
  const input = routeInputOf(tool.places, tool.waits ? routeArgs : args);
  let answer: RouteAnswer;
  try {
    answer = await invoke(tool.key, input, caller, req, res);
  } catch (err) {
    throw inToolTerms(err, tool.places);
  }
  if (seconds > 0) answer = await awaitCommand(invoke, input.params.id, answer, seconds, caller, req, res);
  if (tool.key === SCREENSHOT_ROUTE && answer.kind === 'bytes') {
    // The screen as the agent reported it, read after the shot so a change it reported with it counts.
    const computer = await invoke(COMPUTER_ROUTE, { params: input.params, query: {}, body: undefined }, caller, req, res);
    return screenshotResult(answer.body, answer.contentType, computer.kind === 'json' ? screenOf(computer.body) : undefined);
  }
  return resultOf(tool, answer);
}

const SCREENSHOT_ROUTE = 'computers.screenshot';
const COMPUTER_ROUTE = 'computers.getComputer';
/** The tools that answer a command: one that ended `failed` is a tool error carrying the agent's reason. */
const COMMAND_ROUTES = new Set(['computers.queueCommand', 'computers.getCommand']);

/**
 * A route's answer as a tool result: a line about it, then its JSON as text, once. Not as
 * `structuredContent`: many clients hand the model only `content` and others only `structuredContent`,
 * so the data would have to travel twice to reach every model (docs/mcp.md). A PNG is an image.
 */
export function resultOf(tool: McpTool, answer: RouteAnswer): ToolResult {
  if (answer.kind === 'bytes') {
    if (answer.contentType.startsWith('image/')) {
      return { content: [{ type: 'image', data: answer.body.toString('base64'), mimeType: answer.contentType }] };
    }
    return { content: [{ type: 'text', text: answer.body.toString('base64') }] };
  }
  if (answer.kind === 'empty') return { content: [{ type: 'text', text: `Done: ${tool.definition.title ?? tool.definition.name}.` }] };
  const body = answer.body as Record<string, unknown>;
  if (COMMAND_ROUTES.has(tool.key)) return commandResultOf(tool, body);
  return {
    content: [
      { type: 'text', text: summaryOf(tool, body) },
      { type: 'text', text: JSON.stringify(body) },
    ],
  };
}

/** A command's answer: `failed` is a tool error with the agent's reason; a screenshot's or zoom's PNG is an image. */
function commandResultOf(tool: McpTool, body: Record<string, unknown>): ToolResult {
  if (body.status === 'failed') {
    const reason = typeof body.error === 'string' && body.error ? body.error : 'no reason given';
    return {
      isError: true,
      content: [
        { type: 'text', text: `Command ${String(body.command_id)} (${String(body.type)}) failed: ${reason}` },
        { type: 'text', text: JSON.stringify(body) },
      ],
    };
  }
  const { command, png } = withoutPng(body);
  const summary = summaryOf(tool, body) + (png ? ' Its PNG follows as an image.' : '');
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(command) },
      ...(png ? [{ type: 'image' as const, data: png, mimeType: 'image/png' }] : []),
    ],
  };
}

/** One line on an answer: what a list holds and its next cursor, or the item's id and status. */
export function summaryOf(tool: McpTool, body: Record<string, unknown>): string {
  // A list answers its items under one name and has no id of its own (an item's `tags` are no list).
  const lists = body.id === undefined ? Object.entries(body).filter(([, value]) => Array.isArray(value)) : [];
  if (lists.length === 1) {
    const [name, items] = lists[0] as [string, unknown[]];
    const next = typeof body.next_cursor === 'string' ? `; more with cursor ${body.next_cursor}` : '';
    const noun = items.length === 1 ? name.replace(/ies$/, 'y').replace(/s$/, '') : name;
    return `${items.length} ${noun}${next}.`;
  }
  const facts = (['id', 'command_id', 'status'] as const)
    .filter((key) => typeof body[key] === 'string')
    .map((key) => `${key} ${body[key] as string}`);
  return `${tool.definition.title ?? tool.definition.name}: ${facts.length ? facts.join(', ') : 'done'}.`;
}

/** About the bytes a result takes in its answer: its texts and images (base64). */
export function resultBytes(result: ToolResult): number {
  let bytes = 0;
  for (const block of result.content) bytes += block.type === 'text' ? Buffer.byteLength(block.text) : block.data.length;
  return bytes;
}

/** A result past the answer bound, as a tool error saying what to do: the model can ask for less. */
export function tooLargeResult(tool: McpTool, bytes: number, limit: number): ToolResult {
  const text = `The answer of ${tool.definition.name} is ${bytes} bytes, more than the ${limit} bytes one MCP answer may hold (MIND_MCP_MAX_ANSWER_BYTES): ask for less (a smaller limit, a page at a time with cursor, or one item by id).`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/**
 * What a failed call answers: a result with `isError` whose text is the error object's message (the
 * model reads it and corrects the call), then the whole error object. Unexpected failures are
 * reported to `onUnexpected` and answered as HTTP would answer them (`docs` absolute, as over HTTP).
 */
export function errorResultOf(err: unknown, onUnexpected: (err: unknown) => void, publicUrl = ''): ToolResult {
  const error = apiErrorOf(err);
  let apiError = error && error !== 'aborted' ? error : undefined;
  if (!apiError) {
    onUnexpected(err);
    apiError = internalError();
  }
  const body = errorBody(apiError.statusCode, apiError.message, apiError.extra, publicUrl);
  return {
    isError: true,
    content: [
      { type: 'text', text: body.message },
      { type: 'text', text: JSON.stringify(body) },
    ],
  };
}
