import { ERROR_MESSAGES } from '../errors/messages.js';
import { example, fieldExample, notFound, type RouteErrors } from './shared.js';

/** The `memories.*` routes' own causes of their error statuses (memories, recall, transfer, chat, scripts). */
export const MEMORIES_ERRORS: Record<string, RouteErrors> = {
  'memories.storeMemory': {
    400: { summary: 'A category that does not exist', body: { category: 'hobby', content: 'Plays the cello on Sundays.' } },
    404: [notFound('Memory', '`supersedes` names no memory of this mind')],
    409: [
      example(
        '`supersedes` names a memory superseded already',
        'memory_superseded',
        ERROR_MESSAGES.memorySuperseded('0b6f5a62-3f5e-4e8e-9a52-2c7d3f3f1a10', '5d1c7e0a-8f7b-4c3e-9a1d-2b6e4f8c0a11'),
      ),
      example(
        '`supersedes` with a key another memory of the category has',
        'memory_key_taken',
        ERROR_MESSAGES.memoryKeyTaken('writing-style', 'preference'),
      ),
    ],
    412: [
      example(
        'Create only (`If-None-Match: *`), and the key exists',
        'memory_key_exists',
        ERROR_MESSAGES.memoryKeyExists('writing-style', 'preference'),
      ),
    ],
  },
  'memories.recallMemories': {
    400: { summary: 'A limit over 100', query: { limit: '500' } },
    codes: ['cursor_invalid', 'encryption_key_changed'],
  },
  'memories.exportMind': {
    400: {
      summary: 'A JWT without mind_id',
      example: fieldExample('A JWT without mind_id', 'query.mind_id', 'is required with a JWT (which of your minds to export)'),
    },
    403: [example('include_credentials with a Mind Key', 'jwt_required', ERROR_MESSAGES.includeCredentialsNeedsJwt)],
    404: [notFound('Mind', "A mind_id that is not one of the caller's minds")],
    codes: ['encryption_key_changed'],
  },
  'memories.importMind': {
    400: {
      summary: 'A document that is not a mind-export/1',
      body: {
        format: 'mind-export/2',
        exported_at: '2026-11-22T01:29:42.123Z',
        memories: [],
        tasks: [],
        chat: [],
        scripts: [],
        webhooks: [],
      },
    },
    409: [
      example('Another write collided with the import twice (it is planned again once)', 'import_conflict', ERROR_MESSAGES.importConflict),
    ],
    413: [
      example(
        'More items than MIND_IMPORT_MAX_ITEMS',
        'import_too_large',
        'body: the document holds 100,001 items (memories, tasks, chat messages, scripts and webhooks together); one import takes at most 100,000 (MIND_IMPORT_MAX_ITEMS). Split it into documents of at most that many items and import them one after another (with mode=replace, only the first; the rest with mode=merge).',
      ),
    ],
    429: [
      example('Over 60 `?key=` requests a minute', 'rate_limited', ERROR_MESSAGES.rateLimited, undefined, 'KeyRateLimit'),
      example(
        "Over the account's imports at a time",
        'imports_busy',
        'This account is importing 100,000 items already; an account imports at most 100,000 at a time (MIND_IMPORT_CONCURRENCY_PER_USER=1 imports of up to MIND_IMPORT_MAX_ITEMS=100,000 items; a small import counts as 1,000). Retry when its imports have answered.',
      ),
      example(
        "Over the server's imports at a time",
        'imports_busy',
        'The server is importing 200,000 items already; it imports at most 200,000 at a time (MIND_IMPORT_CONCURRENCY=2 imports of up to MIND_IMPORT_MAX_ITEMS=100,000 items). Retry in a few seconds.',
      ),
    ],
    codes: ['import_duplicate'],
  },
  'memories.getMemory': { 404: [notFound('Memory')], codes: ['encryption_key_changed'] },
  'memories.updateMemory': {
    400: { summary: 'Empty content', body: { content: '' } },
    404: [notFound('Memory')],
    409: [
      example(
        'Another memory of the mind has this category and key',
        'memory_key_taken',
        ERROR_MESSAGES.memoryKeyTaken('writing-style', 'preference'),
      ),
    ],
    412: [
      example(
        'The memory changed since the version in `If-Match`',
        'memory_changed',
        ERROR_MESSAGES.memoryChanged('"3f1c9a0d2b7e4f6a8c5d1e0b9a7f3c2d"'),
      ),
    ],
  },
  'memories.memoryHistory': {
    400: { summary: 'A limit over 100', query: { limit: '500' } },
    404: [notFound('Memory')],
    codes: ['cursor_invalid', 'encryption_key_changed'],
  },
  'memories.deleteMemory': { 404: [notFound('Memory')] },
  'memories.verifyMemory': {
    403: [example('A Mind Key (verifying needs the human)', 'jwt_required', ERROR_MESSAGES.verifyNeedsJwt(true))],
    404: [notFound('Memory')],
  },
  'memories.unverifyMemory': {
    403: [example('A Mind Key (unverifying needs the human)', 'jwt_required', ERROR_MESSAGES.verifyNeedsJwt(false))],
    404: [notFound('Memory')],
  },
  'chat.postChatMessage': { 400: { summary: 'A role that does not exist', body: { role: 'user', content: 'Hello' } } },
  'chat.listChatMessages': {
    400: { summary: 'A limit of 0', query: { limit: '0' } },
    404: [notFound('Message given as `before`', 'A `before` that is no message of this mind')],
  },
  'chat.deleteChatMessage': { 404: [notFound('Message')] },
  'chat.clearChatThread': { 400: { summary: 'No thread', query: {} } },
  'chat.searchChat': {
    400: { summary: 'A q without letters or digits', query: { q: '?!' } },
    codes: ['cursor_invalid'],
  },
  'scripts.listScripts': { 400: { summary: 'A limit that is not a number', query: { limit: 'ten' } }, codes: ['cursor_invalid'] },
  'scripts.createScript': {
    400: { summary: 'No content', body: { name: 'fetch-arxiv' } },
    409: [example('The mind has a script of this name', 'script_name_taken', ERROR_MESSAGES.scriptNameTaken('fetch-arxiv'))],
  },
  'scripts.getScript': { 404: [notFound('Script')] },
  'scripts.updateScript': {
    400: { summary: 'Nothing to change', body: {} },
    404: [notFound('Script')],
    409: [example('Another script of the mind has this name', 'script_name_taken', ERROR_MESSAGES.scriptNameTaken('fetch-arxiv'))],
  },
  'scripts.deleteScript': { 404: [notFound('Script')] },
};
