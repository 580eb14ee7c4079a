import type { Memory, MemoryCategory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, isPostgres, runSql, sqliteConnection } from '../db/database.js';
import { cipherBinding, type ContentCipher } from './crypto.js';
import { indexedText, mindPrefix, searchWords } from './search-text.js';
import { deferredIndexChanges } from './write-batch.js';

interface MemoryRow {
  seq: number;
  id: string;
  mind_id: string;
  category: MemoryCategory;
  key: string | null;
  content: string;
  content_encrypted: string | null;
  tags: string;
  verified: boolean | number;
  verified_at: string | null;
  source: string | null;
  created_at: string;
  updated_at: string;
}

const COLUMNS = ['id', 'mind_id', 'category', 'key', 'content', 'content_encrypted', 'tags', 'verified', 'verified_at', 'source', 'created_at', 'updated_at'] as const;
type ReadRow = Pick<MemoryRow, (typeof COLUMNS)[number]>;
const prefixed = (alias: string) => COLUMNS.map((c) => `${alias}.${c}`);

/** A verified memory's relevance is multiplied by this, so it outranks an equal unverified one. */
export const VERIFIED_BOOST = 1.5;

/**
 * SQLite: common words, stop words found by frequency (as Elasticsearch's cutoff_frequency). Scoring a
 * word costs a BM25 evaluation for every memory that holds it (about 2 µs each: 40 ms for a word in 20,000
 * memories), yet a word in many memories weighs little: its IDF is at most ln 9 ≈ 2.2 at a tenth of
 * them (a word in one memory in a thousand: 6.9), 0 at half. A word in at least this share of all
 * indexed memories, and in at least COMMON_WORD_MIN_MEMORIES of the mind's, gets weight 0 in recall
 * (see recallSqlite); the others are ranked by BM25 as they are. Below 1,000 memories nothing changes.
 */
export const COMMON_WORD_SHARE = 0.1;
export const COMMON_WORD_MIN_MEMORIES = 1000;

// POST /memory's statements on SQLite run prepared on the transaction's connection: with the seq
// known from the insert, they measured 534-595 writes/s against 463-549 through knex's query
// builder and insertMany (same machine, same hour).
const INSERT_MEMORY = `INSERT INTO memories (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
const INSERT_TAG = 'INSERT INTO memory_tags (memory_id, mind_id, tag, updated_at) VALUES (?, ?, ?, ?)';
const INSERT_RANK = 'INSERT INTO memories_rank (seq, id, category, verified, updated_at) VALUES (?, ?, ?, ?, ?)';

/** The ranking columns of memories, as memories_rank holds them (migration 0510). */
const RANK_COPY = '(seq, id, category, verified, updated_at) SELECT seq, id, category, verified, updated_at FROM memories';

/** Where the previous page ended, in the page order (score, then updated_at, then id, all descending). */
export interface PagePosition {
  score: number;
  updatedAt: string;
  id: string;
}

export interface RecallFilter {
  /** Lower-case words to search for; empty lists by recency. */
  words: string[];
  category?: MemoryCategory;
  key?: string;
  tags: string[];
  verified?: boolean;
  /** ISO timestamp: only memories changed at or after it. */
  since?: string;
}

export interface RecallRow {
  memory: Memory;
  score: number;
}

/** Memories and their tags. Knows the cipher so credentials are encrypted on every write and decrypted on every read. */
export class MemoriesStore {
  constructor(private readonly cipher: ContentCipher) {}

  private toRow(mindId: string, memory: Memory) {
    const secret = memory.category === 'credentials';
    return {
      id: memory.id,
      mind_id: mindId,
      category: memory.category,
      key: memory.key,
      content: secret ? '' : memory.content,
      content_encrypted: secret ? this.cipher.encrypt(memory.content, cipherBinding(mindId, memory.id)) : null,
      tags: JSON.stringify(memory.tags),
      verified: memory.verified,
      verified_at: memory.verified_at,
      source: memory.source,
      created_at: memory.created_at,
      updated_at: memory.updated_at,
    };
  }

  private toMemory(row: ReadRow): Memory {
    return {
      id: row.id,
      category: row.category,
      key: row.key,
      content: row.content_encrypted === null ? row.content : this.cipher.decrypt(row.content_encrypted, cipherBinding(row.mind_id, row.id)),
      tags: JSON.parse(row.tags) as string[],
      verified: Boolean(row.verified),
      verified_at: row.verified_at,
      source: row.source,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The row as written; on PostgreSQL with its search vector (NULL for credentials, which are never indexed). */
  private rowFor(conn: Conn, mindId: string, memory: Memory) {
    const row = this.toRow(mindId, memory);
    if (!isPostgres(conn)) return row;
    const vector = memory.category === 'credentials' ? null : conn.raw(`to_tsvector('simple', ?)`, [postgresSearchText(memory)]);
    return { ...row, search_vector: vector };
  }

  async insert(conn: Conn, mindId: string, memory: Memory): Promise<void> {
    if (isPostgres(conn)) return this.insertMany(conn, mindId, [memory]);
    const sqlite = await sqliteConnection(conn);
    const row = this.toRow(mindId, memory);
    const seq = Number(sqlite.prepare(INSERT_MEMORY).run(...COLUMNS.map((c) => (c === 'verified' ? Number(row.verified) : row[c]))).lastInsertRowid);
    const insertTag = sqlite.prepare(INSERT_TAG);
    for (const tag of tagRows(mindId, memory)) insertTag.run(tag.memory_id, tag.mind_id, tag.tag, tag.updated_at);
    if (memory.category !== 'credentials') sqlite.prepare(INSERT_RANK).run(seq, memory.id, memory.category, Number(memory.verified), memory.updated_at);
    await addToSearchIndex(conn, mindId, [memory], new Map([[memory.id, seq]]));
  }

  /** Inserts many at once (import, benchmark seeding); the caller runs it in a transaction. */
  async insertMany(conn: Conn, mindId: string, memories: Memory[]): Promise<void> {
    for (let i = 0; i < memories.length; i += 200) {
      const chunk = memories.slice(i, i + 200);
      await conn('memories').insert(chunk.map((m) => this.rowFor(conn, mindId, m)));
      const tags = chunk.flatMap((m) => tagRows(mindId, m));
      for (let j = 0; j < tags.length; j += 300) await conn('memory_tags').insert(tags.slice(j, j + 300));
      if (!isPostgres(conn)) {
        const ids = chunk.map((m) => m.id);
        await conn.raw(`INSERT INTO memories_rank ${RANK_COPY} WHERE id IN (${ids.map(() => '?').join(', ')}) AND category != 'credentials'`, ids);
        await addToSearchIndex(conn, mindId, chunk);
      }
    }
  }

  /** Writes every field of the memory (merged by the service); false if it is not the mind's. */
  async update(conn: Conn, mindId: string, memory: Memory): Promise<boolean> {
    const { id, mind_id: _mind, created_at: _created, ...fields } = this.rowFor(conn, mindId, memory);
    const changed = await conn('memories').where({ id, mind_id: mindId }).update(fields);
    if (!changed) return false;
    await conn('memory_tags').where({ memory_id: id }).delete();
    await insertTags(conn, mindId, memory);
    if (isPostgres(conn)) return true;
    await conn.raw('DELETE FROM memories_rank WHERE seq = (SELECT seq FROM memories WHERE id = ?)', [id]);
    if (memory.category !== 'credentials') await conn.raw(`INSERT INTO memories_rank ${RANK_COPY} WHERE id = ?`, [id]);
    await removeFromSearchIndex(conn, id);
    await addToSearchIndex(conn, mindId, [memory]);
    return true;
  }

  /** The memory if it belongs to the mind; another mind's memory is as absent as a missing one. */
  async find(conn: Conn, mindId: string, id: string): Promise<Memory | undefined> {
    const row = await conn<MemoryRow>('memories').where({ id, mind_id: mindId }).first(...COLUMNS);
    return row && this.toMemory(row);
  }

  async findByKey(conn: Conn, mindId: string, category: MemoryCategory, key: string): Promise<Memory | undefined> {
    const row = await conn<MemoryRow>('memories').where({ mind_id: mindId, category, key }).first(...COLUMNS);
    return row && this.toMemory(row);
  }

  /** The memory and the id of the mind's owner, for the human-only routes that come with a JWT. */
  async findWithOwner(conn: Conn, id: string): Promise<{ memory: Memory; mindId: string; userId: string } | undefined> {
    const row = await conn('memories as m')
      .join('minds', 'minds.id', 'm.mind_id')
      .where('m.id', id)
      .first(...prefixed('m'), 'minds.user_id');
    return row && { memory: this.toMemory(row as ReadRow), mindId: row.mind_id as string, userId: row.user_id as string };
  }

  async delete(conn: Conn, mindId: string, id: string): Promise<boolean> {
    return (await conn('memories').where({ id, mind_id: mindId }).delete()) > 0;
  }

  async deleteAllOfMind(conn: Conn, mindId: string): Promise<number> {
    return conn('memories').where({ mind_id: mindId }).delete();
  }

  /** Every memory of the mind, oldest first. */
  async listAll(conn: Conn, mindId: string): Promise<Memory[]> {
    const rows = await conn<MemoryRow>('memories')
      .where({ mind_id: mindId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select(...COLUMNS);
    return rows.map((row) => this.toMemory(row));
  }

  /**
   * One page of recall, `limit` rows after `after` in page order (the caller asks for one more than
   * it shows, to know whether there is a next page). With words: ranked full-text search (or, for
   * credentials, which are not indexed, a key and tag match by recency); without: newest first.
   */
  async recall(conn: Conn, mindId: string, filter: RecallFilter, limit: number, after?: PagePosition): Promise<RecallRow[]> {
    const ranked = filter.words.length > 0 && filter.category !== 'credentials';
    if (ranked && !isPostgres(conn)) return this.recallSqlite(conn, mindId, filter, limit, after);
    const query = ranked ? this.rankedQuery(conn, mindId, filter) : this.recencyQuery(conn, mindId, filter);
    const page = conn.from(query.as('hits')).select('*');
    if (after) {
      page.where((w) => {
        if (ranked) w.where('score', '<', after.score).orWhere((x) => x.where('score', '=', after.score).andWhere(olderThan(after)));
        else w.where(olderThan(after));
      });
    }
    // Without ranking every score is 0: ordering by it too would keep SQLite from walking the recency index.
    const order = [{ column: 'updated_at', order: 'desc' }, { column: 'id', order: 'desc' }];
    const rows = (await page.orderBy(ranked ? [{ column: 'score', order: 'desc' }, ...order] : order).limit(limit)) as Array<ReadRow & { score: number }>;
    return rows.map((row) => ({ memory: this.toMemory(row), score: Number(row.score) }));
  }

  /** Full-text ranking on PostgreSQL: ts_rank over the row's tsvector (SQLite: recallSqlite). */
  private rankedQuery(conn: Conn, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
    const boost = `(CASE WHEN m.verified THEN ${VERIFIED_BOOST} ELSE 1 END)`;
    // Words are letters and digits only (searchWords), so they are safe as tsquery terms.
    // float8 keeps the score exact across a cursor's round trip.
    const tsquery = filter.words.join(' | ');
    const query = conn('memories as m')
      .whereRaw(`m.search_vector @@ to_tsquery('simple', ?)`, [tsquery])
      .select(...prefixed('m'), conn.raw(`ts_rank(m.search_vector, to_tsquery('simple', ?))::float8 * ${boost} AS score`, [tsquery]));
    return applyFilters(query, mindId, filter);
  }

  /**
   * Ranked recall on SQLite: FTS5 with BM25 (negative, lower is better, so it is negated), times
   * the verified boost; the mind prefix on every indexed word restricts the search to the mind.
   * Common words (COMMON_WORD_SHARE) get weight 0: the memories holding one of the other
   * words come first, ranked by BM25 over those words; then, with score 0 and newest first, those
   * that hold only common words. A q of only common words thus lists its matches newest first.
   */
  private async recallSqlite(conn: Conn, mindId: string, filter: RecallFilter, limit: number, after?: PagePosition): Promise<RecallRow[]> {
    const { ranked, common } = await splitCommonWords(conn, mindPrefix(mindId), filter.words);
    const inTail = after !== undefined && after.score <= 0;
    const rows = ranked.length > 0 && !inTail ? await this.bm25Page(conn, mindId, filter, ranked, limit, after) : [];
    if (rows.length < limit && common.length > 0) {
      rows.push(...(await this.commonWordsPage(conn, mindId, filter, common, ranked, limit - rows.length, inTail ? after : undefined)));
    }
    return rows;
  }

  /**
   * One page ranked by BM25. BM25 has to be computed for every memory holding a word; the ranking
   * columns come from the narrow memories_rank (seq, id, category, verified, updated_at) and only
   * the page's rows are read from memories.
   */
  private async bm25Page(conn: Conn, mindId: string, filter: RecallFilter, words: string[], limit: number, after?: PagePosition) {
    const params: Knex.RawBinding[] = [matchAny(mindPrefix(mindId), words)];
    const conditions = filterConditions(filter, 'r', params, false);
    let position = '';
    if (after) {
      position = 'WHERE score < ? OR (score = ? AND (updated_at < ? OR (updated_at = ? AND id < ?)))';
      params.push(after.score, after.score, after.updatedAt, after.updatedAt, after.id);
    }
    params.push(limit, mindId);
    const rows = (await conn.raw(
      `WITH hits AS MATERIALIZED (
         SELECT * FROM (
           SELECT r.seq, r.updated_at, r.id, -bm25(memories_fts) * (CASE WHEN r.verified THEN ${VERIFIED_BOOST} ELSE 1 END) AS score
           FROM memories_fts JOIN memories_rank r ON r.seq = memories_fts.rowid
           WHERE memories_fts MATCH ?${conditions.map((c) => ` AND ${c}`).join('')}
         ) ${position}
         ORDER BY score DESC, updated_at DESC, id DESC LIMIT ?)
       SELECT ${SQLITE_COLUMNS}, hits.score AS score FROM hits CROSS JOIN memories m ON m.seq = hits.seq
       WHERE m.mind_id = ? ORDER BY hits.score DESC, hits.updated_at DESC, hits.id DESC`,
      params,
    )) as Array<ReadRow & { score: number }>;
    return rows.map((row) => ({ memory: this.toMemory(row), score: Number(row.score) }));
  }

  /**
   * Newest first, score 0: the memories holding one of the common words and none of the ranked
   * ones. Common words are in at least a tenth of the indexed memories, so walking the newest (after
   * the filters) and checking each in the index finds a page quickly; if the newest 400 do not
   * fill it, the matches are collected from the index instead (slower, but bounded by the index).
   */
  private async commonWordsPage(conn: Conn, mindId: string, filter: RecallFilter, common: string[], ranked: string[], limit: number, after?: PagePosition) {
    const prefix = mindPrefix(mindId);
    const run = async (window: boolean) => {
      const params: Knex.RawBinding[] = [mindId];
      const conditions = filterConditions(filter, 'm', params);
      if (after) {
        conditions.push('(m.updated_at < ? OR (m.updated_at = ? AND m.id < ?))');
        params.push(after.updatedAt, after.updatedAt, after.id);
      }
      const holds = window ? 'EXISTS (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND rowid = m.seq)' : 'm.seq IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)';
      const lacks = window
        ? 'NOT EXISTS (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND rowid = m.seq)'
        : 'm.seq NOT IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)';
      const match = [holds, ...(ranked.length > 0 ? [lacks] : [])];
      const matchParams = [matchAny(prefix, common), ...(ranked.length > 0 ? [matchAny(prefix, ranked)] : [])];
      const order = 'ORDER BY m.updated_at DESC, m.id DESC';
      const where = `m.mind_id = ?${conditions.map((c) => ` AND ${c}`).join('')}`;
      const sql = window
        ? `SELECT ${SQLITE_COLUMNS}, 0 AS score FROM (SELECT m.* FROM memories m WHERE ${where} ${order} LIMIT 400) m WHERE ${match.join(' AND ')} ${order} LIMIT ?`
        : `SELECT ${SQLITE_COLUMNS}, 0 AS score FROM memories m WHERE ${where} AND ${match.join(' AND ')} ${order} LIMIT ?`;
      return (await conn.raw(sql, [...params, ...matchParams, limit])) as Array<ReadRow & { score: number }>;
    };
    let rows = await run(true);
    if (rows.length < limit) rows = await run(false);
    return rows.map((row) => ({ memory: this.toMemory(row), score: 0 }));
  }

  private recencyQuery(conn: Conn, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
    const [firstTag, ...otherTags] = filter.tags;
    if (firstTag !== undefined) {
      // Driven by the first tag's index (newest first), with its copies of updated_at and id as the
      // page order, so the database stops after one page instead of checking every memory.
      const columns = prefixed('m').filter((c) => c !== 'm.id' && c !== 'm.updated_at');
      const query = conn('memory_tags as t')
        .join('memories as m', 'm.id', 't.memory_id')
        .where('t.mind_id', mindId)
        .andWhere('t.tag', firstTag)
        .select(...columns, 't.memory_id as id', 't.updated_at as updated_at', conn.raw('0 AS score'));
      return this.matchKeyAndTags(applyFilters(query, mindId, { ...filter, tags: otherTags }), filter.words);
    }
    const query = conn('memories as m').select(...prefixed('m'), conn.raw('0 AS score'));
    return this.matchKeyAndTags(applyFilters(query, mindId, filter), filter.words);
  }

  /** Credentials are not indexed: with words, each must appear in the key or the tags. */
  private matchKeyAndTags(query: Knex.QueryBuilder, words: string[]) {
    for (const word of words) {
      query.whereRaw(`lower(coalesce(m.key, '') || ' ' || m.tags) LIKE ? ESCAPE '\\'`, [`%${word.replace(/[\\%_]/g, '\\$&')}%`]);
    }
    return query;
  }

  async stats(conn: Conn, mindId: string) {
    const byCategory = (await conn('memories').where({ mind_id: mindId }).groupBy('category').select('category').count({ n: '*' })) as Array<{
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

/** A change of the SQLite search index: a memory's index row to add, or a memory (by id) to take out. */
export type IndexChange = { add: [rowid: number, key: string, content: string, tags: string] } | { remove: string };

/** Adds (if the memory still exists) up to this many index rows in one statement. */
const ADDS_PER_STATEMENT = 100;
const insertIndexRows = (count: number) =>
  `INSERT INTO memories_fts (rowid, key, content, tags) SELECT column1, column2, column3, column4 FROM (VALUES ${Array(count).fill('(?, ?, ?, ?)').join(', ')}) WHERE EXISTS (SELECT 1 FROM memories WHERE seq = column1)`;

/**
 * SQLite: makes the changes in order. Consecutive adds go in one statement: FTS5 writes what it
 * holds in memory out as a new index segment at every savepoint, and each statement that writes a
 * virtual table in a transaction opens one, so an INSERT per memory gave a segment per memory (and
 * more merging later). An add is skipped if its memory is gone: in a batched write (write-batch.ts)
 * the changes are made at the end of the batch, after a later write may have deleted the memory.
 */
export async function applyIndexChanges(conn: Conn, changes: IndexChange[]): Promise<void> {
  for (let i = 0; i < changes.length; ) {
    const change = changes[i]!;
    if ('remove' in change) {
      await runSql(conn, 'DELETE FROM memories_fts WHERE rowid = (SELECT seq FROM memories WHERE id = ?)', [change.remove]);
      i++;
      continue;
    }
    const adds: unknown[][] = [];
    for (let next = changes[i]; next && 'add' in next && adds.length < ADDS_PER_STATEMENT; next = changes[++i]) adds.push(next.add);
    await runSql(conn, insertIndexRows(adds.length), adds.flat());
  }
}

/** At once, or inside a batched write at the end of the batch. */
async function changeSearchIndex(conn: Conn, changes: IndexChange[]) {
  const deferred = deferredIndexChanges<IndexChange>(conn);
  if (deferred) deferred.push(...changes);
  else await applyIndexChanges(conn, changes);
}

/**
 * SQLite: the index rows of memories already inserted (credentials are never indexed), in the
 * caller's transaction; the delete trigger of the migration removes them again.
 */
async function addToSearchIndex(conn: Conn, mindId: string, memories: Memory[], knownSeqs?: Map<string, number>) {
  const indexed = memories.filter((m) => m.category !== 'credentials');
  if (indexed.length === 0) return;
  let seqs = knownSeqs;
  if (!seqs) {
    const rows = (await conn('memories').whereIn('id', indexed.map((m) => m.id)).select('id', 'seq')) as Array<{ id: string; seq: number }>;
    seqs = new Map(rows.map((r) => [r.id, r.seq]));
  }
  const prefix = mindPrefix(mindId);
  await changeSearchIndex(
    conn,
    indexed.map((m) => ({ add: [seqs.get(m.id)!, indexedText(prefix, m.key ?? ''), indexedText(prefix, m.content), indexedText(prefix, m.tags.join(' '))] })),
  );
}

/** PostgreSQL: the normalised words of key, content and tags (the same words SQLite indexes). */
const postgresSearchText = (m: Memory) => [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');

/** SQLite (on PostgreSQL the row's vector is rewritten with the row). */
const removeFromSearchIndex = (conn: Conn, memoryId: string) => changeSearchIndex(conn, [{ remove: memoryId }]);

const SQLITE_COLUMNS = COLUMNS.map((c) => `m."${c}"`).join(', ');

/** An FTS5 query for any of the words, each a quoted term with the mind's prefix (never FTS5 syntax). */
const matchAny = (prefix: string, words: string[]) => words.map((w) => `"${prefix}${w}"`).join(' OR ');

/**
 * The recall filters as SQL conditions on `alias`: a memories row, or its memories_rank copy (seq,
 * id, category, verified, updated_at; the key is then looked up in memories). Credentials only
 * when asked for by category. Appends their bindings to `params`.
 */
function filterConditions(filter: RecallFilter, alias: string, params: Knex.RawBinding[], rowHasKey = true): string[] {
  const conditions = [filter.category ? `${alias}.category = ?` : `${alias}.category != 'credentials'`];
  if (filter.category) params.push(filter.category);
  if (filter.key !== undefined) {
    conditions.push(rowHasKey ? `${alias}."key" = ?` : `EXISTS (SELECT 1 FROM memories k WHERE k.seq = ${alias}.seq AND k."key" = ?)`);
    params.push(filter.key);
  }
  if (filter.verified !== undefined) {
    conditions.push(`${alias}.verified = ?`);
    params.push(filter.verified);
  }
  if (filter.since) {
    conditions.push(`${alias}.updated_at >= ?`);
    params.push(filter.since);
  }
  for (const tag of filter.tags) {
    conditions.push(`EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_id = ${alias}.id AND t.tag = ?)`);
    params.push(tag);
  }
  return conditions;
}

/**
 * Splits the words of a SQLite search into those ranked by BM25 and the common ones: in at least
 * COMMON_WORD_SHARE of all indexed memories and in at least COMMON_WORD_MIN_MEMORIES. The number of
 * indexed memories is FTS5's own row count, the first varint of its averages record; a word's count stops at the threshold.
 */
async function splitCommonWords(conn: Conn, prefix: string, words: string[]): Promise<{ ranked: string[]; common: string[] }> {
  const [averages] = (await conn.raw('SELECT block FROM memories_fts_data WHERE id = 1')) as Array<{ block: Buffer }>;
  const indexed = averages ? readVarint(averages.block) : 0;
  const threshold = Math.max(COMMON_WORD_MIN_MEMORIES, Math.ceil(indexed * COMMON_WORD_SHARE));
  if (indexed < threshold) return { ranked: words, common: [] };
  const ranked: string[] = [];
  const common: string[] = [];
  for (const word of words) {
    const [{ n }] = (await conn.raw('SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)', [
      matchAny(prefix, [word]),
      threshold,
    ])) as [{ n: number }];
    (n >= threshold ? common : ranked).push(word);
  }
  return { ranked, common };
}

/** SQLite's variable-length integer (also FTS5's): big-endian 7-bit groups, the ninth byte whole. */
function readVarint(bytes: Uint8Array): number {
  let value = 0;
  for (let i = 0; i < 9 && i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (i === 8) return value * 256 + byte;
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return value;
  }
  return value;
}

function olderThan(after: PagePosition) {
  return (w: Knex.QueryBuilder) =>
    w.where('updated_at', '<', after.updatedAt).orWhere((x) => x.where('updated_at', '=', after.updatedAt).andWhere('id', '<', after.id));
}

function applyFilters(query: Knex.QueryBuilder, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
  const params: Knex.RawBinding[] = [];
  const conditions = filterConditions(filter, 'm', params);
  return query.where('m.mind_id', mindId).whereRaw(conditions.join(' AND '), params);
}

const tagRows = (mindId: string, memory: Memory) =>
  [...new Set(memory.tags)].map((tag) => ({ memory_id: memory.id, mind_id: mindId, tag, updated_at: memory.updated_at }));

async function insertTags(conn: Conn, mindId: string, memory: Memory) {
  const rows = tagRows(mindId, memory);
  if (rows.length) await conn('memory_tags').insert(rows);
}

/** Memory counts per mind for GET /minds (every category, credentials included). */
export async function countMemoriesByMind(conn: Conn, mindIds: string[]): Promise<Map<string, number>> {
  if (mindIds.length === 0) return new Map();
  const rows = (await conn('memories').whereIn('mind_id', mindIds).groupBy('mind_id').select('mind_id').count({ n: '*' })) as Array<{
    mind_id: string;
    n: number | string;
  }>;
  return new Map(rows.map((r) => [r.mind_id, Number(r.n)]));
}
