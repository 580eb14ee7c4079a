import type { Memory, MemoryCategory } from '@mindservice/contract';
import type { Knex } from 'knex';
import { type Conn, isPostgres } from '../db/database.js';
import { cipherBinding, type ContentCipher } from './crypto.js';
import { indexedText, mindPrefix, searchWords } from './search-text.js';

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

  async insert(conn: Conn, mindId: string, memory: Memory): Promise<void> {
    await conn('memories').insert(this.toRow(mindId, memory));
    await insertTags(conn, mindId, memory);
    await addToSearchIndex(conn, mindId, [memory]);
  }

  /** Inserts many at once (import, benchmark seeding); the caller runs it in a transaction. */
  async insertMany(conn: Conn, mindId: string, memories: Memory[]): Promise<void> {
    for (let i = 0; i < memories.length; i += 200) {
      const chunk = memories.slice(i, i + 200);
      await conn('memories').insert(chunk.map((m) => this.toRow(mindId, m)));
      const tags = chunk.flatMap((m) => [...new Set(m.tags)].map((tag) => ({ memory_id: m.id, mind_id: mindId, tag, updated_at: m.updated_at })));
      for (let j = 0; j < tags.length; j += 300) await conn('memory_tags').insert(tags.slice(j, j + 300));
      await addToSearchIndex(conn, mindId, chunk);
    }
  }

  /** Writes every field of the memory (merged by the service); false if it is not the mind's. */
  async update(conn: Conn, mindId: string, memory: Memory): Promise<boolean> {
    const { id, mind_id: _mind, created_at: _created, ...fields } = this.toRow(mindId, memory);
    const changed = await conn('memories').where({ id, mind_id: mindId }).update(fields);
    if (!changed) return false;
    await conn('memory_tags').where({ memory_id: id }).delete();
    await insertTags(conn, mindId, memory);
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

  /**
   * Full-text ranking, the dialect branch of search. SQLite: FTS5 with BM25 (negative, lower is
   * better, so it is negated); the mind prefix on every word restricts the search to the mind.
   */
  private rankedQuery(conn: Conn, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
    const boost = `(CASE WHEN m.verified THEN ${VERIFIED_BOOST} ELSE 1 END)`;
    if (isPostgres(conn)) {
      // Words are letters and digits only (searchWords), so they are safe as tsquery terms.
      // float8 keeps the score exact across a cursor's round trip.
      const tsquery = filter.words.join(' | ');
      const query = conn('memories as m')
        .whereRaw(`m.search_vector @@ to_tsquery('simple', ?)`, [tsquery])
        .select(...prefixed('m'), conn.raw(`ts_rank(m.search_vector, to_tsquery('simple', ?))::float8 * ${boost} AS score`, [tsquery]));
      return applyFilters(conn, query, mindId, filter);
    }
    const prefix = mindPrefix(mindId);
    const match = filter.words.map((w) => `"${prefix}${w}"`).join(' OR ');
    const query = conn('memories_fts')
      .join('memories as m', 'm.seq', 'memories_fts.rowid')
      .whereRaw('memories_fts MATCH ?', [match])
      .select(...prefixed('m'), conn.raw(`-bm25(memories_fts) * ${boost} AS score`));
    return applyFilters(conn, query, mindId, filter);
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
      return this.matchKeyAndTags(applyFilters(conn, query, mindId, { ...filter, tags: otherTags }), filter.words);
    }
    const query = conn('memories as m').select(...prefixed('m'), conn.raw('0 AS score'));
    return this.matchKeyAndTags(applyFilters(conn, query, mindId, filter), filter.words);
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

/**
 * Writes the index rows of memories already inserted (credentials are never indexed), in the
 * caller's transaction. The delete trigger of the migration removes them again.
 */
async function addToSearchIndex(conn: Conn, mindId: string, memories: Memory[]) {
  const indexed = memories.filter((m) => m.category !== 'credentials');
  if (indexed.length === 0) return;
  if (isPostgres(conn)) {
    // The row itself carries its vector; minds are kept apart by the mind_id filter of every search.
    for (const m of indexed) {
      const words = [m.key ?? '', m.content, m.tags.join(' ')].map((text) => searchWords(text).join(' ')).join(' ');
      await conn('memories').where({ id: m.id }).update({ search_vector: conn.raw(`to_tsvector('simple', ?)`, [words]) });
    }
    return;
  }
  const seqs = new Map<string, number>();
  const rows = (await conn('memories').whereIn('id', indexed.map((m) => m.id)).select('id', 'seq')) as Array<{ id: string; seq: number }>;
  rows.forEach((r) => seqs.set(r.id, r.seq));
  const prefix = mindPrefix(mindId);
  await conn('memories_fts').insert(
    indexed.map((m) => ({
      rowid: seqs.get(m.id),
      key: indexedText(prefix, m.key ?? ''),
      content: indexedText(prefix, m.content),
      tags: indexedText(prefix, m.tags.join(' ')),
    })),
  );
}

async function removeFromSearchIndex(conn: Conn, memoryId: string) {
  if (isPostgres(conn)) {
    await conn('memories').where({ id: memoryId }).update({ search_vector: null });
    return;
  }
  await conn.raw('DELETE FROM memories_fts WHERE rowid = (SELECT seq FROM memories WHERE id = ?)', [memoryId]);
}

function olderThan(after: PagePosition) {
  return (w: Knex.QueryBuilder) =>
    w.where('updated_at', '<', after.updatedAt).orWhere((x) => x.where('updated_at', '=', after.updatedAt).andWhere('id', '<', after.id));
}

function applyFilters(conn: Conn, query: Knex.QueryBuilder, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
  query.where('m.mind_id', mindId);
  // Credentials only when asked for by category.
  if (filter.category) query.where('m.category', filter.category);
  else query.whereNot('m.category', 'credentials');
  if (filter.key !== undefined) query.where('m.key', filter.key);
  if (filter.verified !== undefined) query.where('m.verified', filter.verified);
  if (filter.since) query.where('m.updated_at', '>=', filter.since);
  for (const tag of filter.tags) {
    query.whereExists(conn('memory_tags').select(conn.raw('1')).where('memory_tags.memory_id', conn.ref('m.id')).andWhere('memory_tags.tag', tag));
  }
  return query;
}

async function insertTags(conn: Conn, mindId: string, memory: Memory) {
  const unique = [...new Set(memory.tags)];
  if (unique.length) await conn('memory_tags').insert(unique.map((tag) => ({ memory_id: memory.id, mind_id: mindId, tag, updated_at: memory.updated_at })));
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
