// @mindservice/sdk/anthropic-memory: a mind as the `/memories` directory of Claude's memory tool.
// It imports only types from @anthropic-ai/sdk (an optional peer dependency).
export { mindMemoryTool } from './anthropic-memory/tool.js';
export type { MindMemoryToolOptions } from './anthropic-memory/tool.js';
