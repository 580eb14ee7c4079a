import type { Memory, MemoryChainLink, MemoryVersion } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import { newId } from '../lib/secrets.js';
import { notExpired } from './recall-filter.js';
import { COLUMNS, type MemoryRows, type ReadRow, type VersionRow } from './rows.js';

/** A supersede chain is walked at most this far either way (a chain is a line: each memory replaces one). */
export const CHAIN_DEPTH = 10_000;

const VERSION_COLUMNS = [
  'id',
  'memory_id',
  'mind_id',
  'category',
  'key',
  'content',
  'content_encrypted',
  'tags',
  'source',
  'expires_at',
  'valid_from',
  'valid_to',
  'at',
  'replaced_at',
] as const;
const INSERT_VERSION = `INSERT INTO memory_versions (${VERSION_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${VERSION_COLUMNS.map(() => '?').join(', ')})`;

/** The chain around a memory: its ancestors (negative depth) and descendants (positive), the memory itself at 0. */
const CHAIN = `WITH RECURSIVE
  up(id, depth) AS (
    SELECT id, 0 FROM memories WHERE id = ? AND mind_id = ?
    UNION ALL SELECT m.id, up.depth - 1 FROM memories m JOIN up ON m.superseded_by = up.id WHERE m.mind_id = ? AND up.depth > -${CHAIN_DEPTH}),
  down(id, next, depth) AS (
    SELECT id, superseded_by, 0 FROM memories WHERE id = ? AND mind_id = ?
    UNION ALL SELECT m.id, m.superseded_by, down.depth + 1 FROM memories m JOIN down ON m.id = down.next WHERE m.mind_id = ? AND down.depth < ${CHAIN_DEPTH}),
  chain(id, depth) AS (SELECT id, depth FROM up UNION SELECT id, depth FROM down)
SELECT ${COLUMNS.map((c) => `m."${c}"`).join(', ')}, chain.depth AS depth FROM chain JOIN memories m ON m.id = chain.id
WHERE chain.depth > ? AND `;

/** A memory's earlier versions and its supersede chain, both scoped to the mind. */
export class MemoryHistoryStore {
  constructor(private readonly rows: MemoryRows) {}

  /** Keeps `previous` (the memory as it stood) as a version, replaced at `replacedAt`. */
  async keep(conn: Conn, mindId: string, previous: Memory, replacedAt: string): Promise<void> {
    const row = this.rows.toVersionRow(mindId, previous, newId(), replacedAt);
    await runSql(
      conn,
      INSERT_VERSION,
      VERSION_COLUMNS.map((c) => row[c]),
    );
  }

  /** Up to `limit` versions of the memory after the version `afterSeq` (0: from the first), oldest first. */
  async versions(conn: Conn, mindId: string, memoryId: string, afterSeq: number, limit: number) {
    const found = (await conn('memory_versions')
      .where({ memory_id: memoryId, mind_id: mindId })
      .andWhere('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit)
      .select('seq', ...VERSION_COLUMNS)) as Array<VersionRow & { seq: number }>;
    return found.map((row): { seq: number; version: MemoryVersion } => ({ seq: Number(row.seq), version: this.rows.toVersion(row) }));
  }

  /** Up to `limit` links of the memory's chain after depth `afterDepth`, oldest first; expired memories left out. */
  async chain(conn: Conn, mindId: string, memoryId: string, afterDepth: number, limit: number, now: string) {
    const params: Knex.RawBinding[] = [memoryId, mindId, mindId, memoryId, mindId, mindId, afterDepth];
    const sql = `${CHAIN}${notExpired('m', now, params)} ORDER BY chain.depth LIMIT ${Math.trunc(limit)}`;
    const found = await runSql<ReadRow & { depth: number | string }>(conn, sql, params);
    return found.map((row): { depth: number; link: MemoryChainLink } => {
      const m = this.rows.toMemory(row);
      const { id, category, key, content, valid_from, valid_to, superseded_by, created_at } = m;
      return { depth: Number(row.depth), link: { id, category, key, content, valid_from, valid_to, superseded_by, created_at } };
    });
  }
}
