import { STOP_WORDS_SQL_ARRAY } from './stop-words.js';
import type { TsvectorTables } from './tsvector-engine.js';

/**
 * A row's ranking columns (migration 0533: search_words, its length without stop words; search_counts,
 * its words that occur more than once) as SQL over its tsvector `vector`, with today's STOP_WORDS: a
 * change to them needs a migration that writes the trigger function below and every row again.
 */
export const rankingColumnsOf = (vector: string) => ({
  words: `length(ts_delete(${vector}, ${STOP_WORDS_SQL_ARRAY}))`,
  counts: `(SELECT jsonb_object_agg(lexeme, array_length(positions, 1)) FILTER (WHERE array_length(positions, 1) > 1) FROM unnest(${vector}))`,
});

/**
 * Migration steps (frozen: a later change needs a migration of its own) that turn a table's ranking
 * columns from generated columns into columns its writers fill: a stored generated column costs
 * every statement that writes the table, not only per row (PostgreSQL reads each expression back
 * from the catalog and plans it at every executor start; measured in docs/performance.md).
 *
 * The hot insert computes them itself (rankingColumnsOf). Every other writer is caught by a BEFORE
 * trigger in plpgsql (its plans are kept per connection): an insert that leaves search_words NULL
 * beside a search_vector, and any update of search_vector. The values stay as they were.
 */
export function writtenRankingColumnsMigration(rows: string): { up: string[]; down: string[] } {
  const fill = `${rows}_ranking_columns`;
  const today = rankingColumnsOf('NEW.search_vector');
  return {
    up: [
      `ALTER TABLE ${rows} ALTER COLUMN search_words DROP EXPRESSION, ALTER COLUMN search_counts DROP EXPRESSION`,
      `CREATE FUNCTION ${fill}() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         NEW.search_words := ${today.words};
         NEW.search_counts := ${today.counts};
         RETURN NEW;
       END $$`,
      `CREATE TRIGGER ${fill}_insert BEFORE INSERT ON ${rows} FOR EACH ROW
       WHEN (NEW.search_words IS NULL AND NEW.search_vector IS NOT NULL) EXECUTE FUNCTION ${fill}()`,
      `CREATE TRIGGER ${fill}_update BEFORE UPDATE OF search_vector ON ${rows} FOR EACH ROW EXECUTE FUNCTION ${fill}()`,
    ],
    down: [
      `DROP TRIGGER ${fill}_update ON ${rows}`,
      `DROP TRIGGER ${fill}_insert ON ${rows}`,
      `DROP FUNCTION ${fill}()`,
      // Generated again (0533's expressions): a column cannot be given an expression back, so it is made anew.
      `ALTER TABLE ${rows} DROP COLUMN search_words, DROP COLUMN search_counts`,
      `ALTER TABLE ${rows}
         ADD COLUMN search_words integer GENERATED ALWAYS AS (${rankingColumnsOf('search_vector').words}) STORED,
         ADD COLUMN search_counts jsonb GENERATED ALWAYS AS (search_word_counts(search_vector)) STORED`,
    ],
  };
}

/** The search statistics a PostgreSQL keyword index keeps for one table (migrations 0533 and 0561). */
export interface RankingColumnsSpec extends TsvectorTables {
  /** The trigger function that keeps the statistics. */
  statsFunction: string;
  /** Today's stop words as an SQL text[] (stop-words.ts STOP_WORDS_SQL_ARRAY). */
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
