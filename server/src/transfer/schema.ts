import { IMPORT_LIMITS, MindImport } from '@mindservice/contract';
import { type ZodError, type ZodTypeAny, z } from 'zod';
import { checkJson } from '../http/body.js';
import { validationError, validationErrorFrom } from '../http/validation.js';
import { inChunks } from './chunks.js';

// The import route's body is held to the contract's MindImport here, not by the request pipeline
// (metadata `bodyCheckedByHandler`): checking 100,000 items at once (the schema, and checkJson's NUL
// and depth walk) takes seconds of the event loop, so the items are checked in pieces with other
// requests served between them.

const ITEM_KINDS = ['memories', 'tasks', 'chat', 'scripts'] as const;

/** The document with its items not yet looked at: everything else, and how many items of each kind. */
const Envelope = MindImport.extend({
  memories: z.array(z.unknown()).max(IMPORT_LIMITS.memories),
  tasks: z.array(z.unknown()).max(IMPORT_LIMITS.tasks),
  chat: z.array(z.unknown()).max(IMPORT_LIMITS.chat),
  scripts: z.array(z.unknown()).max(IMPORT_LIMITS.scripts),
});
export type ImportEnvelope = z.infer<typeof Envelope>;

/** The document's envelope checked (format, arrays and their lengths, webhooks); its items are not. */
export function readEnvelope(body: unknown): ImportEnvelope {
  // What checkJson (no NUL, no deep nesting) would have said of the whole body, but for the items.
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const { memories: _m, tasks: _t, chat: _c, scripts: _s, ...rest } = body as Record<string, unknown>;
    checkJson(rest, 'body');
  } else {
    checkJson(body, 'body');
  }
  const result = Envelope.safeParse(body);
  if (!result.success) throw validationErrorFrom('body', result.error);
  return result.data;
}

/** Holds every item to the contract's schema for its kind, a piece at a time; the problems are reported as the pipeline does. */
export async function checkItems(envelope: ImportEnvelope): Promise<MindImport> {
  const failures: Array<[string, ZodError]> = [];
  const doc: Record<string, unknown> = { ...envelope };
  for (const kind of ITEM_KINDS) {
    const schema: ZodTypeAny = MindImport.shape[kind].element;
    const items: unknown[] = [];
    await inChunks(envelope[kind], (chunk, offset) => {
      chunk.forEach((item, i) => {
        checkJson(item, `body.${kind}.${offset + i}`);
        const result = schema.safeParse(item);
        if (result.success) items.push(result.data);
        else failures.push([`body.${kind}.${offset + i}`, result.error]);
      });
    });
    doc[kind] = items;
  }
  if (failures.length > 0) throw validationError(failures);
  return doc as MindImport;
}
