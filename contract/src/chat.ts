import {
  bodyErrors,
  c,
  errors,
  Id,
  IdParams,
  IsoDateOrDateTime,
  meta,
  NonBlank,
  PAGE_BYTES,
  QueryInteger,
  Timestamp,
  PageCursor,
  NextCursor,
} from './common.js';
import { RecallMode } from './recall.js';
import { z } from './zod.js';

export const ChatRole = z.enum(['human', 'agent']);
export const ChatMessage = z
  .object({
    id: Id('Message'),
    role: ChatRole,
    content: z.string().openapi({ example: 'Please keep each summary under 300 words.' }),
    thread: z.string().openapi({ description: 'Thread name; `default` unless given.', example: 'default' }),
    created_at: Timestamp('When it was posted'),
  })
  .openapi('ChatMessage');
export type ChatMessage = z.infer<typeof ChatMessage>;

export const PostChatBody = z
  .object({
    role: ChatRole.openapi({ description: "`agent` for the agent's own words, `human` for its human's." }),
    content: z.string().min(1).max(65536).openapi({ description: 'The message.', example: 'Please keep each summary under 300 words.' }),
    thread: NonBlank(200).optional().openapi({ description: 'Thread name, default `default`.', example: 'default' }),
  })
  .openapi('PostChatBody');

export const ChatSearchHit = ChatMessage.extend({
  score: z.number().openapi({
    description:
      "An estimate from 0 to 1 of how likely the message answers the question, as recall's `score` (the same curves: docs/memories.md); higher is better, monotone within one answer. Past the hybrid window, keyword hits follow with score 0.",
    example: 0.42,
  }),
  match: z.enum(['keyword', 'semantic', 'both']).openapi({
    description: 'How it was found: by its words, by its meaning, or both.',
    example: 'keyword',
  }),
}).openapi('ChatSearchHit');

export const ChatSearchQuery = z.object({
  q: z
    .string()
    .max(1000)
    // A rule of every script's letters, which no pattern every engine reads alike can state: the description says it.
    .refine((q) => /[\p{L}\p{N}]/u.test(q), 'has no letters or digits to search for')
    .openapi({ description: "Words to search for in the messages' content, with at least one letter or digit.", example: 'budget review' }),
  thread: z.string().max(200).optional().openapi({ description: 'Only messages of this thread (default: every thread).' }),
  role: ChatRole.optional().openapi({ description: 'Only messages of this role: `human` or `agent`.' }),
  since: IsoDateOrDateTime.optional().openapi({
    description: 'Only messages posted at or after this time (ISO 8601 date, or date-time with a zone).',
  }),
  mode: RecallMode.optional(),
  limit: QueryInteger(1, 100).optional().openapi({ description: '1..100, default 20.' }),
  cursor: PageCursor(500, '`next_cursor` of the previous page, with `q`, `mode` and the filters unchanged (any other text is 400).'),
});

export const ChatSearchResult = z
  .object({
    messages: z.array(ChatSearchHit),
    next_cursor: NextCursor(
      'eyJ2IjoxLCJmIjoiWHEzdjlMdzJaazhyVDFwQSIsInMiOjMuNDIsInUiOiIyMDI2LTExLTIyVDAxOjI5OjQyLjEyM1oiLCJpIjoiMGI2ZjVhNjItM2Y1ZS00ZThlLTlhNTItMmM3ZDNmM2YxYTEwIn0',
    ),
  })
  .openapi('ChatSearchResult');

const chat = meta('mindKey', 'Chat');

/** Composed into `memoriesContract` (index.ts). */
export const chatRoutes = c.router({
  postChatMessage: {
    method: 'POST',
    path: '/mind/chat',
    summary: 'Post a chat message',
    description: 'An `agent` message fires `chat.message_sent`, a `human` one `chat.message_received`.',
    body: PostChatBody,
    responses: { 201: ChatMessage, ...bodyErrors },
    metadata: chat,
  },
  listChatMessages: {
    method: 'GET',
    path: '/mind/chat',
    summary: 'Read chat history',
    description: `Messages of a thread, newest last: the newest \`limit\` before \`before\`, ${PAGE_BYTES} (then the oldest are left out). Page back with \`before\` = \`next_before\`.`,
    query: z.object({
      thread: z.string().max(200).optional().openapi({ description: 'Thread name, default `default`.' }),
      limit: QueryInteger(1, 100).optional().openapi({ description: 'Messages per page, 1..100, default 50.' }),
      before: z
        .string()
        .optional()
        .openapi({ description: 'A message id of this mind: only messages older than it (an unknown id is 404).' }),
    }),
    responses: {
      200: z
        .object({
          messages: z.array(ChatMessage),
          next_before: z.string().nullable().openapi({
            description: 'Pass as `before` for the older messages (the id of the oldest shown); null when none is older.',
            example: null,
          }),
        })
        .openapi('ChatHistory'),
      ...errors(400, 404),
    },
    metadata: chat,
  },
  deleteChatMessage: {
    method: 'DELETE',
    path: '/mind/chat/:id',
    summary: 'Delete a chat message',
    description: 'Takes the message out of its thread and out of search. Fires no event.',
    pathParams: IdParams('Message'),
    body: c.noBody(),
    responses: { 204: c.noBody(), ...errors(404) },
    metadata: chat,
  },
  clearChatThread: {
    method: 'DELETE',
    path: '/mind/chat',
    summary: "Delete a thread's messages",
    description:
      'Deletes every message of the thread (all of them, in one transaction) and answers how many. A thread with no message answers `deleted: 0`. Fires no event.',
    query: z.object({
      thread: z
        .string()
        .min(1)
        .max(200)
        .openapi({ description: 'The thread to empty (required: there is no default here).', example: 'session-42' }),
    }),
    body: c.noBody(),
    responses: {
      200: z
        .object({ deleted: z.number().int().openapi({ description: 'How many messages were deleted.', example: 12 }) })
        .openapi('ChatThreadCleared'),
      ...errors(400),
    },
    metadata: chat,
  },
  searchChat: {
    method: 'GET',
    path: '/mind/chat/search',
    summary: 'Search chat messages',
    description:
      "Finds the mind's chat messages, in every thread unless `thread` is given, by their words (full-text over the content) and by their meaning (embeddings), fused (`mode=hybrid`, the default), or by one alone (`mode=keyword`, `mode=semantic`); each hit says how it `match`ed. By meaning, the candidates are the best keyword hits and the newest messages that pass the filters. At most `limit` a page, " +
      PAGE_BYTES +
      '. Page with `next_cursor`.' +
      ' `mode=semantic` while embeddings are off on this server (`MIND_EMBEDDINGS=off`) is 400, and so is a `cursor` this list did not give' +
      ' (`cursor_invalid`) or one of another search (`q`, `mode` or a filter changed since the first page).',
    query: ChatSearchQuery,
    responses: { 200: ChatSearchResult, ...errors(400) },
    metadata: chat,
  },
});
