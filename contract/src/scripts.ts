import {
  atLeastOneOf,
  bodyErrors,
  c,
  errors,
  Id,
  IdParams,
  meta,
  NextCursor,
  NonBlank,
  PAGE_BYTES,
  QueryInteger,
  Timestamp,
  PageCursor,
} from './common.js';
import { z } from './zod.js';

/** The script the document's examples show (a script, and a mind document's scripts). */
export const SCRIPT_DESCRIPTION = 'Lists the newest arXiv papers on a topic.';
export const SCRIPT_CONTENT =
  "import arxiv\n\nfor paper in arxiv.Search(query='agents', max_results=5).results():\n    print(paper.title)\n";

export const Script = z
  .object({
    id: Id('Script'),
    name: z.string().openapi({ example: 'fetch-arxiv' }),
    description: z.string().nullable().openapi({ example: SCRIPT_DESCRIPTION }),
    language: z.string().nullable().openapi({ example: 'python' }),
    content: z.string().openapi({ example: SCRIPT_CONTENT }),
    created_at: Timestamp('When it was created'),
    updated_at: Timestamp('When it last changed'),
  })
  .openapi('Script');
export type Script = z.infer<typeof Script>;

export const CreateScriptBody = z
  .object({
    name: NonBlank(200).openapi({ description: 'Unique within the mind.', example: 'fetch-arxiv' }),
    description: z.string().max(20000).optional().openapi({ description: 'What it does and how to run it.', example: SCRIPT_DESCRIPTION }),
    language: NonBlank(50).optional().openapi({ description: 'Its language, as a word.', example: 'python' }),
    content: z.string().max(1_000_000).openapi({ description: 'The source text.', example: SCRIPT_CONTENT }),
  })
  .openapi('CreateScriptBody');
export const UpdateScriptBody = atLeastOneOf(
  z.object({
    name: NonBlank(200).optional().openapi({ description: 'Unique within the mind.', example: 'fetch-arxiv' }),
    description: z.string().max(20000).nullish().openapi({ description: 'null clears it.', example: SCRIPT_DESCRIPTION }),
    language: NonBlank(50).nullish().openapi({ description: 'null clears it.', example: 'python' }),
    content: z.string().max(1_000_000).optional().openapi({ description: 'The source text.', example: SCRIPT_CONTENT }),
  }),
).openapi('UpdateScriptBody', {
  description: 'Only the fields given change (at least one); unknown fields are ignored.',
  example: { content: SCRIPT_CONTENT.replace('max_results=5', 'max_results=10') },
});

const scripts = meta('mindKey', 'Scripts');
const ScriptParams = IdParams('Script');

/** Composed into `memoriesContract` (index.ts). */
export const scriptRoutes = c.router({
  listScripts: {
    method: 'GET',
    path: '/mind/scripts',
    summary: 'List scripts',
    description: `Scripts of the key's mind by name, each with its content: at most \`limit\` (default 100) a page, ${PAGE_BYTES}. Page with \`next_cursor\`: the cursor is the last name shown, so scripts added or removed meanwhile never make a page repeat or skip another.`,
    query: z.object({
      limit: QueryInteger(1, 100).optional().openapi({ description: 'Scripts per page, 1..100, default 100.' }),
      cursor: PageCursor(1000),
    }),
    responses: {
      200: z
        .object({
          scripts: z.array(Script),
          next_cursor: NextCursor('WzEsImZldGNoLWFyeGl2Il0'),
        })
        .openapi('ScriptList'),
      ...errors(400),
    },
    metadata: scripts,
  },
  createScript: {
    method: 'POST',
    path: '/mind/scripts',
    summary: 'Create a script',
    description: 'Names are unique within the mind (409 otherwise).',
    body: CreateScriptBody,
    responses: { 201: Script, ...errors(409), ...bodyErrors },
    metadata: scripts,
  },
  getScript: {
    method: 'GET',
    path: '/mind/scripts/:id',
    summary: 'Get a script',
    pathParams: ScriptParams,
    responses: { 200: Script, ...errors(404) },
    metadata: scripts,
  },
  updateScript: {
    method: 'PUT',
    path: '/mind/scripts/:id',
    summary: 'Update a script',
    pathParams: ScriptParams,
    body: UpdateScriptBody,
    responses: { 200: Script, ...errors(404, 409), ...bodyErrors },
    metadata: scripts,
  },
  deleteScript: {
    method: 'DELETE',
    path: '/mind/scripts/:id',
    summary: 'Delete a script',
    pathParams: ScriptParams,
    responses: { 204: c.noBody(), ...errors(404) },
    metadata: scripts,
  },
});
