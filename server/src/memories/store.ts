import type { Memory, MemoryCategory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, dialectOf, runSql } from '../db/database.js';
import type { ChangeParts } from '../events/recorder.js';
import { MIND_NOT_DELETED } from '../minds/deletions.js';
import type { Cipher } from '../lib/cipher.js';
import { MemoryHistoryStore } from './history-store.js';
import { keywordIndexOf } from './keyword-index-choice.js';
import { recallPage } from './recall-page.js';
import { filterConditions, holdsAt, notExpired, type PagePosition, type RecallFilter, type RecallRow } from './recall-filter.js';
import { COLUMNS, MemoryRows, type MemoryRow, prefixed, type ReadRow, SQLITE_COLUMNS, tagRows } from './rows.js';

const QUOTED_COLUMNS = COLUMNS.map((c) => `"${c}"`).join(', ');

/**
 * Memories, their tags and their keyword index (keyword-index.ts, the connection's database's);
 * a page of keyword recall is in recall-page.ts.
 */
export class MemoriesStore {
  private readonly rows: MemoryRows;
  /** Earlier versions and supersede chains (history-store.ts). */
  readonly history: MemoryHistoryStore;

  constructor(cipher: Cipher) {
    this.rows = new MemoryRows(cipher);
    this.history = new MemoryHistoryStore(this.rows);
  }

  /** The row as written, with the keyword index's columns where the row carries them. */
  private rowFor(conn: Conn, mindId: string, memory: Memory) {
    return keywordIndexOf(conn).rowFor(conn, this.rows.toRow(mindId, memory), memory);
  }

  async insert(conn: Conn, mindId: string, memory: Memory): Promise<void> {
    return keywordIndexOf(conn).insertOne(conn, this.rows, mindId, memory);
  }

  /**
   * A new memory's insert as WITH parts for its event's statement (PostgreSQL: the write is one
   * round trip); undefined where the database writes it on its own (insert).
   */
  insertParts(conn: Conn, mindId: string, memory: Memory): ChangeParts | undefined {
    return keywordIndexOf(conn).insertParts?.(this.rows, mindId, memory);
  }

  /** Inserts many at once, indexed at once (import, benchmark seeding); the caller runs it in a transaction. */
  async insertMany(conn: Conn, mindId: string, memories: Memory[]): Promise<void> {
    for (let i = 0; i < memories.length; i += 200) {
      const chunk = memories.slice(i, i + 200);
      await conn('memories').insert(chunk.map((m) => this.rowFor(conn, mindId, m)));
      const tags = chunk.flatMap((m) => tagRows(mindId, m));
      for (let j = 0; j < tags.length; j += 300) await conn('memory_tags').insert(tags.slice(j, j + 300));
      await keywordIndexOf(conn).added(conn, mindId, chunk);
    }
  }

  /** Writes every field of the memory (merged by the service); false if it is not the mind's. */
  async update(conn: Conn, mindId: string, memory: Memory): Promise<boolean> {
    const { id, mind_id: _mind, created_at: _created, ...fields } = this.rowFor(conn, mindId, memory);
    const changed = await conn('memories').where({ id, mind_id: mindId }).update(fields);
    if (!changed) return false;
    await conn('memory_tags').where({ memory_id: id }).delete();
    const tags = tagRows(mindId, memory);
    if (tags.length) await conn('memory_tags').insert(tags);
    await keywordIndexOf(conn).rewritten(conn, mindId, memory);
    return true;
  }

  /**
   * The memory if it belongs to the mind and has not expired by `now` (without: expired or not);
   * another mind's memory is as absent as a missing one.
   */
  async find(conn: Conn, mindId: string, id: string, now?: string): Promise<Memory | undefined> {
    const params: Knex.RawBinding[] = [];
    const row = await conn<MemoryRow>('memories as m')
      .where({ id, mind_id: mindId })
      .whereRaw(now === undefined ? '1 = 1' : notExpired('m', now, params), params)
      .first(...COLUMNS);
    return row && this.rows.toMemory(row);
  }

  /**
   * `supersedes`: the mind's memory `oldId` gets superseded_by `newId` and valid_to `now` (unless it
   * ended earlier), in one statement that also tells whether it could. Answers it as it is now, or
   * undefined when it is not the mind's, has expired or was superseded already. `insert` (the
   * successor's insert as WITH parts, PostgreSQL) goes in the same statement: one round trip for both.
   */
  async supersede(
    conn: Conn,
    mindId: string,
    oldId: string,
    newId: string,
    now: string,
    insert?: ChangeParts,
  ): Promise<Memory | undefined> {
    // One that was to hold only later never holds: it ends where it would have begun.
    const update = `UPDATE memories SET valid_to = CASE WHEN valid_to IS NOT NULL AND valid_to <= ? THEN valid_to
         WHEN valid_from IS NOT NULL AND valid_from > ? THEN valid_from ELSE ? END, superseded_by = ?
       WHERE id = ? AND mind_id = ? AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > ?) RETURNING ${QUOTED_COLUMNS}`;
    const bindings = [now, now, now, newId, oldId, mindId, now];
    const [row] = insert
      ? await runSql<ReadRow>(
          conn,
          `WITH ${[...insert.parts, `superseded AS (${update})`].join(', ')} SELECT ${QUOTED_COLUMNS} FROM superseded`,
          [...insert.bindings, ...bindings],
        )
      : await runSql<ReadRow>(conn, update, bindings);
    return row && this.rows.toMemory(row);
  }

  /** `find`, with the row locked until the transaction ends (PostgreSQL; SQLite writes one at a time): a conditional write's read. */
  async findForUpdate(conn: Conn, mindId: string, id: string, now: string): Promise<Memory | undefined> {
    const params: Knex.RawBinding[] = [];
    const row = await dialectOf(conn)
      .forUpdate(
        conn<MemoryRow>('memories as m')
          .where({ id, mind_id: mindId })
          .whereRaw(notExpired('m', now, params), params),
      )
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

  /** One page of keyword recall (recall-page.ts). */
  recall(conn: Conn, mindId: string, filter: RecallFilter, limit: number, after?: PagePosition): Promise<RecallRow[]> {
    return recallPage(conn, this.rows, mindId, filter, limit, after);
  }

  /** The first `limit` of the mind's memories with these seqs (the vector index's neighbours, best first) that pass the filters. */
  async findBySeqs(
    conn: Conn,
    mindId: string,
    filter: RecallFilter,
    seqs: number[],
    limit: number,
  ): Promise<Array<{ seq: number; memory: Memory }>> {
    const params: Knex.RawBinding[] = [mindId];
    const conditions = filterConditions(filter, 'm', params);
    const found = new Map<number, ReadRow>();
    for (let i = 0; i < seqs.length; i += 500) {
      const chunk = seqs.slice(i, i + 500);
      const result = (await conn.raw(
        // The rows by primary key; SQLite would otherwise walk the mind's index.
        `SELECT ${SQLITE_COLUMNS}, m.seq AS seq FROM memories m WHERE m.seq IN (${chunk.map(() => '?').join(', ')}) AND ${dialectOf(conn).withoutIndex('m.mind_id')} = ? AND ${conditions.join(' AND ')}`,
        [...chunk, ...params],
      )) as Array<ReadRow & { seq: number }> | { rows: Array<ReadRow & { seq: number }> };
      for (const row of Array.isArray(result) ? result : result.rows) found.set(Number(row.seq), row);
    }
    const hits: Array<{ seq: number; memory: Memory }> = [];
    for (const seq of seqs) {
      const row = found.get(seq);
      if (row && hits.length < limit) hits.push({ seq, memory: this.rows.toMemory(row) });
    }
    return hits;
  }

  /** What recall lists by default: not expired, holding `now`. */
  async stats(conn: Conn, mindId: string, now: string) {
    const params: Knex.RawBinding[] = [];
    const current = [notExpired('m', now, params), holdsAt('m', now, params)].join(' AND ');
    const byCategory = (await conn('memories as m')
      .where({ mind_id: mindId })
      .whereRaw(current, params)
      .groupBy('category')
      .select('category')
      .count({ n: '*' })) as Array<{
      category: string;
      n: number | string;
    }>;
    const summary = (await conn('memories as m')
      .where({ mind_id: mindId })
      .whereRaw(current, params)
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
