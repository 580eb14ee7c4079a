import { bodyErrors, c, errors, Id, meta, NonBlank, QueryInteger, Timestamp } from './common.js';
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
    role: ChatRole,
    content: z.string().min(1).max(65536).openapi({ example: 'Please keep each summary under 300 words.' }),
    thread: NonBlank(200).optional().openapi({ description: 'Thread name, default `default`.', example: 'default' }),
  })
  .openapi('PostChatBody');

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
    description: 'Messages of a thread, newest last. `before` (a message id) pages back.',
    query: z.object({
      thread: z.string().max(200).optional().openapi({ description: 'Thread name, default `default`.' }),
      limit: QueryInteger(1, 100).optional().openapi({ description: 'Messages per page, 1..100, default 50.' }),
      before: z
        .string()
        .optional()
        .openapi({ description: 'A message id of this mind: only messages older than it (an unknown id is 404).' }),
    }),
    responses: { 200: z.object({ messages: z.array(ChatMessage) }).openapi('ChatHistory'), ...errors(400, 404) },
    metadata: chat,
  },
});
