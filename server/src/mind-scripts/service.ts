import { z } from 'zod';
import type { Script } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Trx } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { ApiError } from '../http/api-error.js';
import { cursorText, decodePageCursor, encodePageCursor, itemsWithinBytes } from '../http/cursor.js';
import { newId } from '../lib/secrets.js';
import { deleteScript, findScript, findScriptByName, insertScript, listScriptsPage, updateScript } from './store.js';

export interface CreateScriptInput {
  name: string;
  description?: string;
  language?: string;
  content: string;
}
export interface UpdateScriptInput {
  name?: string;
  description?: string | null;
  language?: string | null;
  content?: string;
}

const nameTaken = (name: string) => ApiError.conflict('script_name_taken', `body.name: this mind already has a script named "${name}"`);

/** Scripts have no event of their own; every write still moves the mind's last_activity. */
/** A cursor is the last name shown (names are at most 200 characters). */
const ScriptCursor = z.tuple([z.literal(1), cursorText(200)]);

export class ScriptsService {
  constructor(private readonly ctx: AppContext) {}

  private now() {
    return this.ctx.clock.now().toISOString();
  }

  /**
   * One page by name, with each script's content, ending early at the page's byte bound; the cursor
   * is the last name shown (base64url, opaque to clients). The store reads no more than the bound's
   * worth of text (a character is at least one byte); the bytes are then counted exactly.
   */
  async list(mindId: string, query: { limit?: number; cursor?: string } = {}): Promise<{ scripts: Script[]; next_cursor: string | null }> {
    const after = query.cursor === undefined ? undefined : decodePageCursor(query.cursor, ScriptCursor, 'GET /mind/scripts')[1];
    const maxBytes = this.ctx.config.pageMaxBytes;
    const page = await listScriptsPage(this.ctx.db, mindId, { limit: query.limit ?? 100, maxChars: maxBytes, after });
    const fit = itemsWithinBytes(page.scripts, maxBytes);
    const scripts = fit < page.scripts.length ? page.scripts.slice(0, fit) : page.scripts;
    const last = scripts[scripts.length - 1];
    return {
      scripts,
      next_cursor: (page.more || fit < page.scripts.length) && last ? encodePageCursor([1, last.name]) : null,
    };
  }

  async get(mindId: string, id: string): Promise<Script> {
    const script = await findScript(this.ctx.db, mindId, id);
    if (!script) throw ApiError.notFound('Script');
    return script;
  }

  async create(mindId: string, body: CreateScriptInput): Promise<Script> {
    const now = this.now();
    const script: Script = {
      id: newId(),
      name: body.name,
      description: body.description ?? null,
      language: body.language ?? null,
      content: body.content,
      created_at: now,
      updated_at: now,
    };
    await this.write(mindId, body.name, async (trx) => {
      if (await findScriptByName(trx, mindId, body.name)) throw nameTaken(body.name);
      await insertScript(trx, mindId, script);
    });
    return script;
  }

  async update(mindId: string, id: string, body: UpdateScriptInput): Promise<Script> {
    let result: Script | undefined;
    await this.write(mindId, body.name ?? '', async (trx) => {
      const existing = await findScript(trx, mindId, id);
      if (!existing) throw ApiError.notFound('Script');
      if (body.name !== undefined && body.name !== existing.name && (await findScriptByName(trx, mindId, body.name)))
        throw nameTaken(body.name);
      result = {
        ...existing,
        name: body.name ?? existing.name,
        description: body.description === undefined ? existing.description : body.description,
        language: body.language === undefined ? existing.language : body.language,
        content: body.content ?? existing.content,
        updated_at: this.now(),
      };
      await updateScript(trx, mindId, result);
    });
    return result!;
  }

  async delete(mindId: string, id: string): Promise<void> {
    await this.write(mindId, '', async (trx) => {
      if (!(await deleteScript(trx, mindId, id))) throw ApiError.notFound('Script');
    });
  }

  /** One transaction per write; a concurrent duplicate name (PostgreSQL) still answers 409. */
  private async write(mindId: string, name: string, change: (trx: Trx) => Promise<void>) {
    try {
      await this.ctx.db.transaction(async (trx) => {
        await change(trx);
        await this.ctx.events.touch(trx, mindId);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(name);
      throw err;
    }
  }
}
