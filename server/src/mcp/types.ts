import type { ServerResponse } from 'node:http';
import type { MindCaller } from '../http/caller.js';
import type { RouteAnswer, RouteInput } from '../http/pipeline.js';
import type { ApiRequest } from '../http/request.js';
import type { ArgumentPlaces } from './schemas.js';

type Schema = Record<string, unknown>;

/** A tool as `tools/list` answers it. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: Schema & { type: 'object' };
  annotations: { title?: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** A tool and the route it runs. */
export interface McpTool {
  key: string;
  definition: ToolDefinition;
  places: ArgumentPlaces;
  /** Takes `wait` (queue_command): answers the finished command. */
  waits?: boolean;
}

type ContentBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
export interface ToolResult {
  [key: string]: unknown;
  content: ContentBlock[];
  isError?: boolean;
}

/** Runs a contract route for a caller: the pipeline's `invoke`. */
export type Invoke = (key: string, input: RouteInput, caller: MindCaller, req: ApiRequest, res: ServerResponse) => Promise<RouteAnswer>;
