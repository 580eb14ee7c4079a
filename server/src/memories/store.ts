import type { Memory, MemoryCategory } from '@mindservice/contract';
import { type Conn, isPostgres, sqliteConnection } from '../db/database.js';
import { MIND_NOT_DELETED } from '../minds/deletions.js';
import type { ContentCipher } from './crypto.js';
import { recallPage } from './recall.js';
import type { PagePosition, RecallFilter, RecallRow } from './recall-filter.js';
import { COLUMNS, MemoryRows, type MemoryRow, prefixed, type ReadRow, tagRows } from './rows.js';
import { addToSearchIndex, indexAtOnce, type IndexChangeSink, removeFromSearchIndex, searchVector } from './search-index.js';

// POST /memory's statements on SQLite run prepared on the transaction's connection, with the seq
// known from the insert: cheaper than knex's query builder and insertMany on the hot path.
const INSERT_MEMORY = `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const INSERT_TAG = 'INSERT INTO memory_tags (memory_id, mind_id, tag, updated_at) VALUES (?, ?, ?, ?)';

/**
 * Memories, their tags and (with search-index.ts) their search index; recall is in recall.ts.
 * Writes that change the SQLite search index send the changes to the `index` they are given: at
 * once, or in a batched write to the sink of its batch (write-batch.ts).
 */
export class MemoriesStore {
  private readonly rows: MemoryRows;

  constructor(cipher: ContentCipher) {
    this.rows = new MemoryRows(cipher);
  }

  /** Rows to memories and back (recall by meaning reads rows itself). */
  get memoryRows(): MemoryRows {
    return this.rows;
  }

  /** The row as written; on PostgreSQL with its search vector (NULL for credentials, which are never indexed). */
  private rowFor(conn: Conn, mindId: string, memory: Memory) {
    const row = this.rows.toRow(mindId, memory);
    return isPostgres(conn) ? { ...row, search_vector: searchVector(conn, memory) } : row;
  }

  async insert(conn: Conn, mindId: string, memory: Memory, index: IndexChangeSink): Promise<void> {
    if (isPostgres(conn)) return this.insertMany(conn, mindId, [memory]);
    const sqlite = await sqliteConnection(conn);
    const row = this.rows.toRow(mindId, memory);
    const seq = Number(
      sqlite.prepare(INSERT_MEMORY).run(...COLUMNS.map((c) => (c === 'verified' ? Number(row.verified) : row[c]))).lastInsertRowid,
    );
    const insertTag = sqlite.prepare(INSERT_TAG);
    for (const tag of tagRows(mindId, memory)) insertTag.run(tag.memory_id, tag.mind_id, tag.tag, tag.updated_at);
    await addToSearchIndex(conn, index, mindId, [memory], new Map([[memory.id, seq]]));
  }

  /** Inserts many at once, indexed at once (import, benchmark seeding); the caller runs it in a transaction. */
  async insertMany(conn: Conn, mindId: string, memories: Memory[]): Promise<void> {
    for (let i = 0; i < memories.length; i += 200) {
      const chunk = memories.slice(i, i + 200);
      await conn('memories').insert(chunk.map((m) => this.rowFor(conn, mindId, m)));
      const tags = chunk.flatMap((m) => tagRows(mindId, m));
      for (let j = 0; j < tags.length; j += 300) await conn('memory_tags').insert(tags.slice(j, j + 300));
      if (!isPostgres(conn)) await addToSearchIndex(conn, indexAtOnce, mindId, chunk);
    }
  }

  /** Writes every field of the memory (merged by the service); false if it is not the mind's. */
  async update(conn: Conn, mindId: string, memory: Memory, index: IndexChangeSink): Promise<boolean> {
    const { id, mind_id: _mind, created_at: _created, ...fields } = this.rowFor(conn, mindId, memory);
    const changed = await conn('memories').where({ id, mind_id: mindId }).update(fields);
    if (!changed) return false;
    await conn('memory_tags').where({ memory_id: id }).delete();
    const tags = tagRows(mindId, memory);
    if (tags.length) await conn('memory_tags').insert(tags);
    if (isPostgres(conn)) return true;
    await conn.raw('DELETE FROM memories_rank WHERE seq = (SELECT seq FROM memories WHERE id = ?)', [id]);
    await removeFromSearchIndex(conn, index, id);
    await addToSearchIndex(conn, index, mindId, [memory]);
    return true;
  }

  /** The memory if it belongs to the mind; another mind's memory is as absent as a missing one. */
  async find(conn: Conn, mindId: string, id: string): Promise<Memory | undefined> {
    const row = await conn<MemoryRow>('memories')
      .where({ id, mind_id: mindId })
      .first(...COLUMNS);
    return row && this.rows.toMemory(row);
  }

  async findByKey(conn: Conn, mindId: string, category: MemoryCategory, key: string): Promise<Memory | undefined> {
    const row = await conn<MemoryRow>('memories')
      .where({ mind_id: mindId, category, key })
      .first(...COLUMNS);
    return row && this.rows.toMemory(row);
  }

  /** The memory and the id of the mind's owner, for the human-only routes that come with a JWT. */
  async findWithOwner(conn: Conn, id: string): Promise<{ memory: Memory; mindId: string; userId: string } | undefined> {
    const row = await conn('memories as m')
      .join('minds', 'minds.id', 'm.mind_id')
      .where('m.id', id)
      .whereRaw(MIND_NOT_DELETED) // a deleted mind's rows wait for their purge: gone for the API
      .first(...prefixed('m'), 'minds.user_id');
    return row && { memory: this.rows.toMemory(row as ReadRow), mindId: row.mind_id as string, userId: row.user_id as string };
  }

  async delete(conn: Conn, mindId: string, id: string): Promise<boolean> {
    return (await conn('memories').where({ id, mind_id: mindId }).delete()) > 0;
  }

  /** Every memory of the mind, oldest first. */
  async listAll(conn: Conn, mindId: string): Promise<Memory[]> {
    const rows = await conn<MemoryRow>('memories')
      .where({ mind_id: mindId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select(...COLUMNS);
    return rows.map((row) => this.rows.toMemory(row));
  }

  /** One page of recall (recall.ts). */
  recall(conn: Conn, mindId: string, filter: RecallFilter, limit: number, after?: PagePosition): Promise<RecallRow[]> {
    return recallPage(conn, this.rows, mindId, filter, limit, after);
  }

  async stats(conn: Conn, mindId: string) {
    const byCategory = (await conn('memories')
      .where({ mind_id: mindId })
      .groupBy('category')
      .select('category')
      .count({ n: '*' })) as Array<{
      category: string;
      n: number | string;
    }>;
    const summary = (await conn('memories')
      .where({ mind_id: mindId })
      .first(conn.raw('SUM(CASE WHEN verified THEN 1 ELSE 0 END) AS verified'), conn.raw('MAX(updated_at) AS last_activity'))) as {
      verified: number | string | null;
      last_activity: string | null;
    };
    return {
      byCategory: Object.fromEntries(byCategory.map((r) => [r.category, Number(r.n)])) as Record<string, number>,
      verified: Number(summary?.verified ?? 0),
      lastActivity: summary?.last_activity ?? null,
    };
  }
}
