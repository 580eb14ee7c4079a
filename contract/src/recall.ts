import {
  errors,
  IsoDateOrDateTime,
  IsoDateTime,
  c,
  meta,
  QueryBoolean,
  QueryInteger,
  QueryNumber,
  PAGE_BYTES,
  PageCursor,
  NextCursor,
} from './common.js';
import { Memory, MemoryCategory, Tag } from './memories.js';
import { z } from './zod.js';

/** A recall can require at most this many tags (a memory holds at most 50). */
export const MAX_RECALL_TAGS = 20;
/** The longest a recall waits for the mind's pending embeddings (`wait_ms`). */
export const MAX_RECALL_WAIT_MS = 2000;

export const RecallMode = z.enum(['hybrid', 'keyword', 'semantic']).openapi('RecallMode', {
  description:
    '`hybrid` (default): the keyword ranking and the ranking by meaning fused; `keyword`: full-text only; `semantic`: by meaning only (needs embeddings).',
  example: 'hybrid',
});

export const RecallHit = Memory.extend({
  score: z.number().openapi({
    description:
      "An estimate from 0 to 1 of how likely the hit answers the question, the same for every question length and every mind's size; higher is better, monotone within an answer. keyword: from BM25 relative to the question's best possible score (a memory holding every word of a question of rare words: about 0.85); semantic: from the cosine similarity; hybrid: from the re-ranking of both and how far the hit trails the first hit of the answer. Measured on long conversations, hits scoring 0.2-0.4 answered about a fifth to a third of the time, those scoring 0.4-0.6 three to six times in ten, a question made of a memory's own words scores about 0.85 in every mode (docs/memories.md has the table). With an empty `q`, recency order and score 0. `min_score` keeps hits at or above a score.",
    example: 0.62,
  }),
  match: z.enum(['keyword', 'semantic', 'both']).openapi({
    description: 'How it was found: by its words, by its meaning, or both.',
    example: 'both',
  }),
}).openapi('RecallHit');

export const RecallQuery = z.object({
  q: z
    .string()
    .max(1000)
    // A rule of every script's letters, which no pattern every engine reads alike can state: the description says it.
    .refine((q) => /^\s*$|[\p{L}\p{N}]/u.test(q), 'has no letters or digits to search for (leave it out to list the newest memories)')
    .optional()
    .openapi({
      description: 'Words to search for in key, content and tags: blank, or with at least one letter or digit. Empty: newest first.',
    }),
  category: MemoryCategory.optional().openapi({ description: 'Only this category (`credentials` only when asked for).' }),
  memory_key: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'Only the memory with this key. (`key` in a query string is always the Mind Key.)' }),
  memory_key_prefix: z.string().min(1).max(200).optional().openapi({
    description:
      'Only memories whose key starts with this text, exactly (case and every character count): `notes/` lists a folder of keys named like paths. Paged like any recall.',
    example: '/memories/projects/',
  }),
  tags: z
    .union([Tag, z.array(Tag).max(MAX_RECALL_TAGS)])
    .optional()
    .openapi({ description: `Repeat to require several (at most ${MAX_RECALL_TAGS}): \`tags=a&tags=b\`.` }),
  verified: QueryBoolean.optional().openapi({ description: 'true: only verified; false: only unverified.' }),
  since: IsoDateOrDateTime.optional().openapi({
    description: 'Only memories changed at or after this time (ISO 8601 date, or date-time with a zone).',
  }),
  as_of: IsoDateTime.optional().openapi({
    description:
      'What held at this time (RFC 3339 date-time): memories with `valid_from` at or before it and `valid_to` after it (a missing bound is open). Default: now.',
    example: '2026-06-01T00:00:00Z',
  }),
  include_past: QueryBoolean.optional().openapi({
    description: 'true: every memory that has not expired, whatever its `valid_from` / `valid_to` (`as_of` is then ignored).',
  }),
  mode: RecallMode.optional(),
  limit: QueryInteger(1, 100).optional().openapi({ description: '1..100, default 20.' }),
  cursor: PageCursor(500, '`next_cursor` of the previous page, with `q` and the filters unchanged (any other text is 400).'),
  wait_ms: QueryInteger(0, MAX_RECALL_WAIT_MS)
    .optional()
    .openapi({
      description: `Read-your-writes: 0..${MAX_RECALL_WAIT_MS}, default 0. In modes hybrid and semantic (with \`q\`, embeddings on), first wait until none of the mind's memories waits to be embedded (\`pending_embeddings\` of GET /memory/stats is 0), at most this many milliseconds; then recall as always. A wait that runs out still answers 200 (check \`pending_embeddings\`).`,
      example: 2000,
    }),
  min_score: QueryNumber(0, 1).optional().openapi({
    description:
      'Only hits whose `score` is at least this (0..1). Hits come in descending score, so the first one below it ends the answer (`next_cursor` null). Needs `q`: without it every score is 0, and a `min_score` above 0 is 400.',
    example: 0.5,
  }),
});

export const RecallResult = z
  .object({
    memories: z.array(RecallHit),
    next_cursor: NextCursor(
      'eyJ2IjoxLCJmIjoiWHEzdjlMdzJaazhyVDFwQSIsInMiOjMuNDIsInUiOiIyMDI2LTExLTIyVDAxOjI5OjQyLjEyM1oiLCJpIjoiMGI2ZjVhNjItM2Y1ZS00ZThlLTlhNTItMmM3ZDNmM2YxYTEwIn0',
    ),
  })
  .openapi('RecallResult');

const mk = meta('mindKey', 'Memories');

/** Recall by words and by meaning; composed into `memoriesContract` (index.ts). */
export const recallRoutes = c.router({
  recallMemories: {
    method: 'GET',
    path: '/memory/recall',
    summary: 'Search memories',
    description:
      'Finds memories by their words (full-text over key, content and tags) and by their meaning (embeddings), fused (`mode=hybrid`, the default), or by one alone (`mode=keyword`, `mode=semantic`); each hit says how it `match`ed. Verified memories rank higher. A memory is found by meaning once the background worker embedded it (`pending_embeddings` in GET /memory/stats). `credentials` memories appear only when `category=credentials` is asked for, by keyword. At most `limit` a page, ' +
      PAGE_BYTES +
      '. Page with `next_cursor`.' +
      ' `mode=semantic` while embeddings are off on this server (`MIND_EMBEDDINGS=off`) is 400, and so is a `cursor` this list did not give' +
      ' (`cursor_invalid`) or one of another search (`q`, `mode` or a filter changed since the first page).',
    query: RecallQuery,
    responses: { 200: RecallResult, ...errors(400) },
    metadata: mk,
  },
});
