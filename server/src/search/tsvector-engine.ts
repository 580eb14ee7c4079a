import type { Knex } from 'knex';
import type { Conn } from '../db/database.js';
import { BM25_K1, lengthNorm, type RankedQuery, VARIANT_WEIGHT } from './bm25.js';
import { COMMON_WORD_MIN_TEXTS, COMMON_WORDS_WINDOW, type SplitTerms, splitByCommonness } from './common-words.js';

/** Words are letters and digits only (words.ts), so they are safe as tsquery terms. */
export const tsqueryOf = (words: string[]) => words.join(' | ');

/**
 * Where a PostgreSQL keyword index keeps its rows and each mind's BM25 statistics: the rows carry
 * `seq`, `mind_id`, `search_vector` (the 'simple' configuration over words.ts's words, with a GIN
 * index) and the ranking columns `search_words` and `search_counts` (tsvector-columns.ts); the
 * mind's statistics are a few rows per mind (one per backend, summed) kept by a trigger.
 */
export interface TsvectorTables {
  rows: string;
  /** The statistics table and its count column (memory_search_stats.memories, chat_search_stats.messages). */
  stats: string;
  count: string;
}

/** A ranked hit: the row's `seq` and its BM25 score (float8, exact across a cursor's round trip). */
export interface RankedHit {
  seq: number;
  score: number;
}

/** The newest indexed texts a word is counted in, to tell whether it is common (exact for a mind with no more). */
const COUNTED_WINDOW = 2000;

/** One table's keyword index on PostgreSQL: a ranked search's two pages, and the common words' split. */
export class TsvectorIndex {
  constructor(readonly tables: TsvectorTables) {}

  /**
   * BM25 over one mind's rows, in one statement and one pass over the candidates (the row is the
   * ranking row `r`): the GIN index finds the mind's rows holding any term; for each the term's
   * presence comes from search_vector (a term counts once, bm25.ts; search_counts is no longer
   * read) and its length from search_words, without unnesting the vector; the
   * mind's statistics are summed in the same statement, so they cannot disagree with the rows
   * ranked. Only `seq` and the page order leave the candidates: the caller reads the page's rows
   * (inHitOrder). The filters decide which candidates are hits, not the statistics (a term's
   * weight is the same for every filter, as on SQLite).
   */
  async rankedHits(conn: Conn, q: RankedQuery): Promise<RankedHit[]> {
    const a = 'r';
    const tables = this.tables;
    const bindings: unknown[] = [];
    // A term's presence (bm25.ts: counted once): 1 for the word, half for a variant only.
    const occurrences = q.groups.map((group, i) => {
      const parts = group.map((word, j) => {
        bindings.push(word);
        const count = `CASE WHEN ${a}.search_vector @@ to_tsquery('simple', ?) THEN 1::float8 ELSE 0::float8 END`;
        return j === 0 ? count : `${VARIANT_WEIGHT} * ${count}`;
      });
      return `${parts.length === 1 ? parts[0] : `least(1, ${parts.join(' + ')})`} AS f${i}`;
    });
    const wanted = q.conditions.length ? q.conditions.join(' AND ') : 'true';
    bindings.push(...q.conditionBindings, q.mindId, tsqueryOf([...new Set(q.groups.flat())]), q.mindId);
    const holding = q.groups.map((_, i) => `count(*) FILTER (WHERE f${i} > 0)::float8 AS d${i}`).join(', ');
    const idf = (i: number) => `ln(1 + (greatest(mind.n, d${i}) - d${i} + 0.5) / (d${i} + 0.5))`;
    const norm = lengthNorm('len / mind.average');
    const sum = q.groups.map((_, i) => `${idf(i)} * f${i} * ${BM25_K1 + 1} / (f${i} + ${norm})`).join(' + ');
    // Relative to the question's best possible score, as on SQLite (bm25.ts questionScale).
    const scale = `${q.groups.length} * ln(1 + (greatest(mind.n, 1) - 0.5) / 1.5)`;
    let position = '';
    if (q.after) {
      position = 'WHERE score < ? OR (score = ? AND (at < ? OR (at = ? AND id < ?)))';
      bindings.push(q.after.score, q.after.score, q.after.at, q.after.at, q.after.id);
    }
    bindings.push(q.limit);
    // len and boost are float8 so that every candidate's score is float arithmetic, not numeric (a
    // third of the statement's time over many candidates); the values are the same.
    // Unnamed (knex's raw), not runSql's prepared statement: planned with its words as constants, so the
    // tsqueries are parsed once and the plan fits how common the words are (a generic plan would not).
    // mind and holding are one row each, computed once: inlined, a planner without the table's
    // statistics (never analysed) put them inside a loop over the hits, once per hit.
    const result = (await conn.raw(
      `WITH hits AS MATERIALIZED (
         SELECT ${a}.seq, ${a}.${q.orderColumn} AS at, ${a}.id, ${a}.search_words::float8 AS len, (${q.boost})::float8 AS boost,
                ${occurrences.join(', ')}, (${wanted}) AS wanted
         FROM ${tables.rows} ${a} WHERE ${a}.mind_id = ? AND ${a}.search_vector @@ to_tsquery('simple', ?)
       ), mind AS MATERIALIZED (
         SELECT coalesce(sum(s.${tables.count}), 0)::float8 AS n,
                CASE WHEN coalesce(sum(s.${tables.count}), 0) > 0 AND coalesce(sum(s.words), 0) > 0
                  THEN sum(s.words)::float8 / sum(s.${tables.count}) ELSE 1 END AS average
         FROM ${tables.stats} s WHERE s.mind_id = ?
       ), holding AS MATERIALIZED (SELECT ${holding} FROM hits)
       SELECT seq, score FROM (
         SELECT seq, at, id, (${sum}) / (${scale}) * boost AS score FROM hits, mind, holding WHERE wanted
       ) scored ${position}
       ORDER BY score DESC, at DESC, id DESC LIMIT ?`,
      bindings as Knex.RawBinding[],
    )) as { rows: RankedHit[] };
    return result.rows.map((row) => ({ seq: Number(row.seq), score: Number(row.score) }));
  }

  /**
   * The question's terms split into ranked and common (common-words.ts) by how many of the mind's
   * texts hold them. SQLite reads each word's count from its index; here an exact count costs a
   * visit to every text holding the word, the very cost the rule saves. So a word is counted in the
   * mind's newest COUNTED_WINDOW indexed texts, in one pass over them, and its share there stands
   * for its share of the mind: exact for a mind of up to COUNTED_WINDOW texts, an estimate from the
   * newest beyond that. A mind under COMMON_WORD_MIN_TEXTS is not counted at all.
   */
  async splitTerms(conn: Conn, mindId: string, groups: string[][], orderColumn: string): Promise<SplitTerms> {
    if (groups.length === 0) return { ranked: groups, common: [] };
    const { rows, stats, count } = this.tables;
    const words = [...new Set(groups.flat())];
    const counted = words.map((_, i) => `count(*) FILTER (WHERE search_vector @@ to_tsquery('simple', ?)) AS c${i}`);
    // One statement, unnamed (planned with the words as constants): the mind's count from its
    // statistics, and the window (walking the mind's recency index) only where the rule can apply.
    const [row] = (
      await conn.raw(
        `WITH mind AS MATERIALIZED (SELECT coalesce(sum(${count}), 0) AS texts FROM ${stats} WHERE mind_id = ?)
         SELECT mind.texts, w.* FROM mind, LATERAL (
           SELECT count(*) AS n, ${counted.join(', ')} FROM (
             SELECT search_vector FROM ${rows}
             WHERE mind_id = ? AND search_vector IS NOT NULL AND mind.texts >= ${COMMON_WORD_MIN_TEXTS}
             ORDER BY ${orderColumn} DESC, id DESC LIMIT ${COUNTED_WINDOW}) x) w`,
        [mindId, ...words, mindId],
      )
    ).rows as Record<string, string>[];
    const texts = Number(row?.texts ?? 0);
    if (texts < COMMON_WORD_MIN_TEXTS) return { ranked: groups, common: [] };
    const window = Number(row!.n);
    const share = new Map(words.map((word, i) => [word, window > 0 ? Number(row![`c${i}`]) / window : 0]));
    // As SQLite counts a term: the word's texts and its variants' added up.
    return splitByCommonness(groups, texts, (group) => group.reduce((sum, word) => sum + share.get(word)!, 0) * texts);
  }

  /**
   * Newest first, score 0: the texts holding one of the common words and none of the ranked ones,
   * as on SQLite (fts5-engine.ts): the newest COMMON_WORDS_WINDOW after the filters are checked
   * first (common words are in a tenth of them); if they do not fill the page, the index is asked.
   * `conditions` are on `m`.
   */
  async commonWordsRows<Row>(
    conn: Conn,
    q: Pick<RankedQuery, 'mindId' | 'conditions' | 'conditionBindings' | 'orderColumn' | 'limit'> & { common: string[]; ranked: string[] },
    columns: string,
  ): Promise<Row[]> {
    const read = async (window: boolean) => {
      const bindings: Knex.RawBinding[] = [q.mindId, ...q.conditionBindings];
      const conditions = ['m.mind_id = ?', ...q.conditions];
      const matches = ["m.search_vector @@ to_tsquery('simple', ?)"];
      bindings.push(tsqueryOf(q.common));
      if (q.ranked.length > 0) {
        matches.push("NOT (m.search_vector @@ to_tsquery('simple', ?))");
        bindings.push(tsqueryOf(q.ranked));
      }
      const order = `ORDER BY m.${q.orderColumn} DESC, m.id DESC`;
      const rows = this.tables.rows;
      const sql = window
        ? `SELECT ${columns} FROM (SELECT * FROM ${rows} m WHERE ${conditions.join(' AND ')} ${order} LIMIT ${COMMON_WORDS_WINDOW}) m
           WHERE ${matches.join(' AND ')} ${order} LIMIT ?`
        : `SELECT ${columns} FROM ${rows} m WHERE ${[...conditions, ...matches].join(' AND ')} ${order} LIMIT ?`;
      return (await conn.raw(sql, [...bindings, q.limit])).rows as Row[];
    };
    const found = await read(true);
    return found.length < q.limit ? read(false) : found;
  }
}

/** The hits' rows, read by seq with `read`, in the hits' order with their scores; a row deleted since the ranking is left out. */
export async function inHitOrder<Row extends { seq: number | string }, Hit>(
  hits: RankedHit[],
  read: (seqs: number[]) => Promise<Row[]>,
  hitOf: (row: Row, score: number) => Hit,
): Promise<Hit[]> {
  if (hits.length === 0) return [];
  const bySeq = new Map((await read(hits.map((hit) => hit.seq))).map((row) => [Number(row.seq), row]));
  return hits.flatMap((hit) => {
    const row = bySeq.get(hit.seq);
    return row ? [hitOf(row, hit.score)] : [];
  });
}
