import type { Knex } from 'knex';
import { type Conn, runSql } from '../db/database.js';
import { type BeforeCommit, beforeCommit } from '../db/write-batch.js';
import { BM25_K1 as K1, bm25Idf, lengthNorm, type RankedQuery, questionScale, VARIANT_WEIGHT } from './bm25.js';
import { COMMON_WORDS_WINDOW } from './common-words.js';
import { documentLength, indexedText, mindPrefix } from './words.js';

/**
 * Where a SQLite keyword index keeps a table's entries (the area's migrations make them): an FTS5
 * table without content (rowid = the row's seq, tokenizer `ascii`) holding each text's words with
 * its mind's prefix (words.ts mindPrefix), its fts5vocab tables, and a narrow ranking row per text
 * whose triggers keep each mind's statistics.
 */
export interface Fts5Tables {
  /** The rows searched (`seq`, `id`, `mind_id` and the area's columns), read as `m`. */
  rows: string;
  /** The FTS5 table and its columns, in the order an entry's fields come. */
  fts: string;
  ftsColumns: readonly string[];
  /** fts5vocab over it: 'instance' (a word's occurrences per row) and 'row' (a word's number of rows). */
  terms: string;
  words: string;
  /** The ranking row, read as `r`: `seq` first, `words` (the length) last, the filtered columns between. */
  rank: string;
  rankColumns: readonly string[];
  /** Each mind's count of indexed texts (column `count`) and their total length (`words`). */
  stats: string;
  count: string;
}

/** A text to index: its row's seq, its ranking row's values between seq and words, and its fields' words. */
export interface Fts5Entry {
  seq: number;
  mindId: string;
  rank: unknown[];
  fields: string[][];
}

/** BM25's statistics of a mind: its indexed texts, their average length, and how many hold each word. */
export interface Fts5Statistics {
  texts: number;
  averageWords: number;
  holding: Map<string, number>;
}

/** A change of the FTS5 table: a row to add (rowid, then its fields' text), or a row (by id) to take out. */
type Fts5Change = { add: unknown[] } | { remove: string };

/** Rows written in one statement (7 bindings a ranking row: well under SQLite's limit). */
const ROWS_PER_STATEMENT = 100;
const placeholders = (n: number) => Array(n).fill('?').join(', ');
const values = (rows: number, columns: number) =>
  Array(rows)
    .fill(`(${placeholders(columns)})`)
    .join(', ');

/** A question's term as the index holds it: the mind's prefix on each of its words. */
const prefixed = (mindId: string, words: string[]) => {
  const prefix = mindPrefix(mindId);
  return words.map((w) => prefix + w);
};

/**
 * SQL for a term's presence among fts5vocab `instance` rows `v`: 1 for the word, VARIANT_WEIGHT for
 * a variant only (bm25.ts: a term counts once, as a text's length counts distinct words).
 */
const termFrequency = (group: readonly unknown[]) =>
  group.length === 1
    ? 'max(v.term = ?)'
    : `min(1, max(v.term = ?) + ${VARIANT_WEIGHT} * max(v.term IN (${placeholders(group.length - 1)})))`;

/** An FTS5 query for any of the words, each a quoted term with the mind's prefix (never FTS5 syntax). */
const matchAny = (mindId: string, words: string[]) =>
  prefixed(mindId, words)
    .map((w) => `"${w}"`)
    .join(' OR ');

/** One table's keyword index on SQLite: its writes, the mind's statistics, and the two pages of a ranked search. */
export class Fts5Index {
  /**
   * The FTS5 rows are written just before COMMIT (db/write-batch.ts): FTS5 writes a new segment at
   * every savepoint and every statement, so a batch's rows go in a few statements. An add is
   * skipped if its row is gone by then (a later write of the batch deleted it).
   */
  private readonly ftsWrites: BeforeCommit<Fts5Change> = { run: (conn, changes) => this.applyChanges(conn, changes) };

  constructor(readonly tables: Fts5Tables) {}

  /** Indexes texts whose rows were just inserted or rewritten: their ranking rows at once, their words before COMMIT. */
  async add(conn: Conn, entries: Fts5Entry[]): Promise<void> {
    if (entries.length === 0) return;
    const { rank, rankColumns } = this.tables;
    const lengths = entries.map((e) => documentLength(e.fields.flat()));
    for (let i = 0; i < entries.length; i += ROWS_PER_STATEMENT) {
      const chunk = entries.slice(i, i + ROWS_PER_STATEMENT);
      await runSql(
        conn,
        `INSERT INTO ${rank} (${rankColumns.join(', ')}) VALUES ${values(chunk.length, rankColumns.length)}`,
        chunk.flatMap((e, j) => [e.seq, ...e.rank, lengths[i + j]]),
      );
    }
    const text = (e: Fts5Entry) => e.fields.map((words) => indexedText(e.mindId, words));
    await beforeCommit(
      conn,
      this.ftsWrites,
      entries.map((e) => ({ add: [e.seq, ...text(e)] })),
    );
  }

  /** Takes a row's text out before it is indexed again: its ranking row at once, its words before COMMIT. */
  async remove(conn: Conn, id: string): Promise<void> {
    const { rank, rows } = this.tables;
    await runSql(conn, `DELETE FROM ${rank} WHERE seq = (SELECT seq FROM ${rows} WHERE id = ?)`, [id]);
    await beforeCommit(conn, this.ftsWrites, [{ remove: id }]);
  }

  /** Makes the changes in order; consecutive adds in one statement. */
  private async applyChanges(conn: Conn, changes: Fts5Change[]): Promise<void> {
    const { fts, ftsColumns, rows } = this.tables;
    const columns = ftsColumns.length + 1;
    const picked = Array.from({ length: columns }, (_, i) => `column${i + 1}`).join(', ');
    for (let i = 0; i < changes.length; ) {
      const change = changes[i]!;
      if ('remove' in change) {
        await runSql(conn, `DELETE FROM ${fts} WHERE rowid = (SELECT seq FROM ${rows} WHERE id = ?)`, [change.remove]);
        i++;
        continue;
      }
      const adds: unknown[][] = [];
      for (let next = changes[i]; next && 'add' in next && adds.length < ROWS_PER_STATEMENT; next = changes[++i]) adds.push(next.add);
      await runSql(
        conn,
        `INSERT INTO ${fts} (rowid, ${ftsColumns.join(', ')}) SELECT ${picked} FROM (VALUES ${values(adds.length, columns)})
         WHERE EXISTS (SELECT 1 FROM ${rows} WHERE seq = column1)`,
        adds.flat(),
      );
    }
  }

  /** The mind's statistics, and each word's number of texts from the index's own counts (the words carry the mind's prefix). */
  async statistics(conn: Conn, mindId: string, words: string[]): Promise<Fts5Statistics> {
    const { words: vocabulary, stats, count } = this.tables;
    // One statement: search runs it for every question.
    const counts = words.map((_, i) => `, (SELECT doc FROM ${vocabulary} WHERE term = ?) AS w${i}`).join('');
    const [row] = await runSql<Record<string, number | null>>(
      conn,
      `SELECT s.${count} AS texts, s.words${counts} FROM (SELECT 1) LEFT JOIN ${stats} s ON s.mind_id = ?`,
      [...prefixed(mindId, words), mindId],
    );
    const texts = row?.texts ?? 0;
    const holding = new Map(words.map((w, i) => [w, row?.[`w${i}`] ?? 0]));
    return { texts, averageWords: texts > 0 ? row!.words! / texts || 1 : 1, holding };
  }

  /**
   * One page ranked by BM25 with the mind's own statistics and each text's length (the ranking
   * row's `words`): FTS5's formula (bm25() in fts5_aux.c) with this mind's numbers, relative to the
   * question's own scale (bm25.ts questionScale). A word's
   * occurrences per text come from the 'instance' vocabulary by the prefixed word, so only the
   * mind's postings are read, grouped once by text; rows are matched to the mind and the filters
   * before the limit; only the page's rows are read, with `columns` (SQL over `m`).
   */
  async rankedRows<Row>(conn: Conn, q: RankedQuery, stats: Fts5Statistics, columns: string): Promise<Array<Row & { score: number }>> {
    const { rows, rank, terms: vocabulary } = this.tables;
    const order = q.orderColumn;
    const termsOf = q.groups.map((group) => prefixed(q.mindId, group));
    const terms = [...new Set(termsOf.flat())];
    const frequencies = termsOf.map((group, i) => `${termFrequency(group)} AS f${i}`).join(', ');
    const weightedSum = q.groups.map((_, i) => `? * f${i} * ${K1 + 1} / (f${i} + norm)`).join(' + ');
    const scale = questionScale(q.groups.length, stats.texts);
    const weights = q.groups.map((group) => bm25Idf(stats.texts, holdingTerm(stats, group)) / scale);
    // In the order of the placeholders in the statement.
    const params: Knex.RawBinding[] = [...weights, stats.averageWords, ...termsOf.flat(), ...terms, q.mindId, ...q.conditionBindings];
    let position = '';
    if (q.after) {
      position = `WHERE score < ? OR (score = ? AND (${order} < ? OR (${order} = ? AND id < ?)))`;
      params.push(q.after.score, q.after.score, q.after.at, q.after.at, q.after.id);
    }
    params.push(q.limit, q.mindId);
    return (await conn.raw(
      `WITH hits AS MATERIALIZED (
         SELECT * FROM (
           SELECT seq, ${order}, id, (${weightedSum}) * boost AS score FROM (
             SELECT r.seq, r.${order}, r.id, ${q.boost} AS boost, o.*, ${lengthNorm('r.words * 1.0 / ?')} AS norm
             FROM (SELECT v.doc, ${frequencies} FROM ${vocabulary} v WHERE v.term IN (${placeholders(terms.length)}) GROUP BY v.doc) o
             JOIN ${rank} r ON r.seq = o.doc
             WHERE r.mind_id = ?${q.conditions.map((c) => ` AND ${c}`).join('')})
         ) ${position}
         ORDER BY score DESC, ${order} DESC, id DESC LIMIT ?)
       SELECT ${columns}, hits.score AS score FROM hits CROSS JOIN ${rows} m ON m.seq = hits.seq
       WHERE m.mind_id = ? ORDER BY hits.score DESC, hits.${order} DESC, hits.id DESC`,
      params,
    )) as Array<Row & { score: number }>;
  }

  /**
   * Newest first, score 0: the texts holding one of the common words and none of the ranked ones
   * (common-words.ts). Common words are in a tenth of the texts, so walking the newest (after the
   * filters) and checking each in the index finds a page quickly; if the newest COMMON_WORDS_WINDOW
   * do not fill it, the matches are collected from the index instead. `conditions` are on `m`.
   */
  async commonWordsRows<Row>(
    conn: Conn,
    q: Pick<RankedQuery, 'mindId' | 'conditions' | 'conditionBindings' | 'orderColumn' | 'limit'> & { common: string[]; ranked: string[] },
    columns: string,
  ): Promise<Array<Row & { score: number }>> {
    const { rows, fts } = this.tables;
    const run = async (window: boolean) => {
      const holds = window
        ? `EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? AND rowid = m.seq)`
        : `m.seq IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`;
      const lacks = window
        ? `NOT EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? AND rowid = m.seq)`
        : `m.seq NOT IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`;
      const match = [holds, ...(q.ranked.length > 0 ? [lacks] : [])];
      const matchParams = [matchAny(q.mindId, q.common), ...(q.ranked.length > 0 ? [matchAny(q.mindId, q.ranked)] : [])];
      const order = `ORDER BY m.${q.orderColumn} DESC, m.id DESC`;
      const where = `m.mind_id = ?${q.conditions.map((c) => ` AND ${c}`).join('')}`;
      // The window's walk reads only an index where one holds the filtered columns, rows only for the
      // matches; ordered by the walk's own columns, it stops at the page's last match (no sort of the window).
      const walk = `SELECT m.seq, m.${q.orderColumn}, m.id FROM ${rows} m WHERE ${where} ${order} LIMIT ${COMMON_WORDS_WINDOW}`;
      const sql = window
        ? `SELECT ${columns}, 0 AS score FROM (${walk}) w CROSS JOIN ${rows} m ON m.seq = w.seq
           WHERE ${match.map((c) => c.replaceAll('m.seq', 'w.seq')).join(' AND ')} ORDER BY w.${q.orderColumn} DESC, w.id DESC LIMIT ?`
        : `SELECT ${columns}, 0 AS score FROM ${rows} m WHERE ${where} AND ${match.join(' AND ')} ${order} LIMIT ?`;
      return (await conn.raw(sql, [q.mindId, ...q.conditionBindings, ...matchParams, q.limit])) as Array<Row & { score: number }>;
    };
    const found = await run(true);
    return found.length < q.limit ? run(false) : found;
  }
}

/**
 * How many texts hold a word or one of its variants, as BM25 counts a term: the sum, at most every
 * text (variants seldom share a text, so the sum is close to the union).
 */
export const holdingTerm = (stats: Fts5Statistics, group: string[]) =>
  Math.min(
    Math.max(stats.texts, 1),
    group.reduce((n, w) => n + (stats.holding.get(w) ?? 0), 0),
  );
