import { BM25_B, BM25_K1, VARIANT_WEIGHT } from '../lib/bm25.js';
import type { Knex } from 'knex';
import type { Conn } from './database.js';

/** Words are letters and digits only (lib/search-words.ts), so they are safe as tsquery terms. */
export const tsqueryOf = (words: string[]) => words.join(' | ');

/** Where a PostgreSQL keyword index keeps its rows and each mind's BM25 statistics (migrations 0533, 0561). */
export interface PostgresSearchTables {
  /** The table whose rows carry `seq`, `mind_id`, `search_vector`, `search_words` and `search_counts`. */
  rows: string;
  /** The mind's statistics table (a few rows per mind, summed) and its count column (memory_search_stats.memories, chat_search_stats.messages). */
  stats: string;
  count: string;
}

export interface RankedQuery {
  tables: PostgresSearchTables;
  /** The rows table's alias in `conditions` and `boost`. */
  alias: string;
  mindId: string;
  /** The question's terms: each a word and its variants (lib/word-variants.ts). */
  groups: string[][];
  /** What a hit must meet besides holding a term (recall's filters), with their bindings in order. */
  conditions: string[];
  conditionBindings: unknown[];
  /** SQL multiplying a hit's score (the verified boost), or '1'. */
  boost: string;
  /** The page order after the score, both descending: a timestamp column, then `id`. */
  orderColumn: string;
  after?: { score: number; at: string; id: string };
  limit: number;
}

/** A ranked hit: the row's `seq` and its BM25 score (float8, exact across a cursor's round trip). */
export interface RankedHit {
  seq: number;
  score: number;
}

/**
 * BM25 over one mind's rows on PostgreSQL, in one statement and one pass over the candidates: the
 * GIN index finds the mind's rows holding any term; for each the term's occurrences come from two
 * columns kept with the row (presence in search_vector, counts above one in search_counts) and its
 * length from search_words, without unnesting the vector; the mind's statistics (its indexed rows,
 * their total length, and how many of them hold each term) are summed in the same statement, so
 * they cannot disagree with the rows ranked. Only `seq` and the page order leave the candidates:
 * the caller reads the page's rows by seq. The filters decide which candidates are hits, not the
 * statistics (a term's weight is the same for every filter, as on SQLite).
 */
export async function postgresRankedHits(conn: Conn, q: RankedQuery): Promise<RankedHit[]> {
  const { alias: a, tables } = q;
  const bindings: unknown[] = [];
  // A term's occurrences: the word's, and half of each variant's.
  const occurrences = q.groups.map((group, i) => {
    const parts = group.map((word, j) => {
      bindings.push(word, word);
      const count = `CASE WHEN ${a}.search_vector @@ to_tsquery('simple', ?) THEN coalesce((${a}.search_counts ->> ?)::float8, 1) ELSE 0 END`;
      return j === 0 ? count : `${VARIANT_WEIGHT} * ${count}`;
    });
    return `(${parts.join(' + ')}) AS f${i}`;
  });
  const wanted = q.conditions.length ? q.conditions.join(' AND ') : 'true';
  bindings.push(...q.conditionBindings, q.mindId, tsqueryOf([...new Set(q.groups.flat())]), q.mindId);
  const holding = q.groups.map((_, i) => `count(*) FILTER (WHERE f${i} > 0)::float8 AS d${i}`).join(', ');
  const idf = (i: number) => `ln(1 + (greatest(mind.n, d${i}) - d${i} + 0.5) / (d${i} + 0.5))`;
  const norm = `${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * len / mind.average)`;
  const sum = q.groups.map((_, i) => `${idf(i)} * f${i} * ${BM25_K1 + 1} / (f${i} + ${norm})`).join(' + ');
  let position = '';
  if (q.after) {
    position = 'WHERE score < ? OR (score = ? AND (at < ? OR (at = ? AND id < ?)))';
    bindings.push(q.after.score, q.after.score, q.after.at, q.after.at, q.after.id);
  }
  bindings.push(q.limit);
  // len and boost are float8 so that every candidate's score is float arithmetic: with the integer
  // length and the numeric boost PostgreSQL computed in numeric, 2 µs a candidate (a third of the
  // statement over 15,000 candidates); the values are the same (0.75 * an integer is exact in both).
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
       SELECT seq, at, id, (${sum}) * boost AS score FROM hits, mind, holding WHERE wanted
     ) scored ${position}
     ORDER BY score DESC, at DESC, id DESC LIMIT ?`,
    bindings as Knex.RawBinding[],
  )) as { rows: RankedHit[] };
  return result.rows.map((row) => ({ seq: Number(row.seq), score: Number(row.score) }));
}

/** The search statistics a PostgreSQL keyword index keeps for one table (migrations 0533 and 0561). */
export interface RankingColumnsSpec extends PostgresSearchTables {
  /** The trigger function that keeps the statistics. */
  statsFunction: string;
  /** Today's stop words as an SQL text[] (lib/search-words.ts STOP_WORDS_SQL_ARRAY). */
  stopWords: string;
  /** The function's body before (0531's or 0560's), for `down`. */
  previousFunction: string;
}

/** A backend's share of a mind's statistics: writers on different connections update different rows. */
const SLOTS = 16;

/**
 * Migration steps (frozen: a later change needs a migration of its own) that make ranking on
 * PostgreSQL cheap and its writes free of one another:
 * - search_words (the row's length: distinct lexemes but stop words) and search_counts (the lexemes
 *   that occur more than once, with their counts; NULL when none does) are columns the database
 *   computes from search_vector when the row is written, so ranking reads them instead of
 *   unnesting every candidate's vector;
 * - the mind's statistics are kept in up to 16 rows per mind, one per backend (pid modulo 16), and
 *   summed when read: before, every write of a mind updated the one row and so waited for the
 *   COMMIT of the mind's previous write.
 */
export function rankingColumnsMigration(spec: RankingColumnsSpec): { up: string[]; down: string[] } {
  const { rows, stats, count, statsFunction } = spec;
  return {
    up: [
      `CREATE OR REPLACE FUNCTION search_word_counts(vector tsvector) RETURNS jsonb IMMUTABLE PARALLEL SAFE LANGUAGE sql AS $$
         SELECT jsonb_object_agg(lexeme, array_length(positions, 1)) FILTER (WHERE array_length(positions, 1) > 1) FROM unnest(vector) $$`,
      `ALTER TABLE ${rows}
         ADD COLUMN search_words integer GENERATED ALWAYS AS (length(ts_delete(search_vector, ${spec.stopWords}))) STORED,
         ADD COLUMN search_counts jsonb GENERATED ALWAYS AS (search_word_counts(search_vector)) STORED`,
      `ALTER TABLE ${stats} ADD COLUMN slot smallint NOT NULL DEFAULT 0`,
      `ALTER TABLE ${stats} DROP CONSTRAINT ${stats}_pkey, ADD PRIMARY KEY (mind_id, slot)`,
      `CREATE OR REPLACE FUNCTION ${statsFunction}() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE
         mine smallint := pg_backend_pid() % ${SLOTS};
       BEGIN
         IF TG_OP <> 'INSERT' AND OLD.search_vector IS NOT NULL THEN
           -- This backend's row, or (none yet) any row of the mind: an update never inserts a row
           -- for a mind whose deletion may be under way.
           UPDATE ${stats} SET ${count} = ${count} - 1, words = words - OLD.search_words
           WHERE mind_id = OLD.mind_id AND slot = (SELECT s.slot FROM ${stats} s WHERE s.mind_id = OLD.mind_id ORDER BY s.slot = mine DESC, s.slot LIMIT 1);
         END IF;
         IF TG_OP <> 'DELETE' AND NEW.search_vector IS NOT NULL THEN
           INSERT INTO ${stats} AS s (mind_id, slot, ${count}, words) VALUES (NEW.mind_id, mine, 1, NEW.search_words)
           ON CONFLICT (mind_id, slot) DO UPDATE SET ${count} = s.${count} + 1, words = s.words + excluded.words;
         END IF;
         RETURN NULL;
       END $$`,
    ],
    down: [
      `CREATE OR REPLACE FUNCTION ${statsFunction}() RETURNS trigger LANGUAGE plpgsql AS $$${spec.previousFunction}$$`,
      `ALTER TABLE ${stats} DROP CONSTRAINT ${stats}_pkey`,
      `WITH gone AS (DELETE FROM ${stats} RETURNING mind_id, ${count}, words)
       INSERT INTO ${stats} (mind_id, slot, ${count}, words) SELECT mind_id, 0, sum(${count}), sum(words) FROM gone GROUP BY mind_id`,
      `ALTER TABLE ${stats} DROP COLUMN slot, ADD PRIMARY KEY (mind_id)`,
      `ALTER TABLE ${rows} DROP COLUMN search_counts, DROP COLUMN search_words`,
    ],
  };
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
