import { STOP_WORDS_SQL_ARRAY } from '../lib/search-words.js';

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
 * columns from generated columns into columns its writers fill. Measured with pgbench on POST
 * /memory's statement: a stored generated column costs every statement that writes the table, not
 * only per row: PostgreSQL 15 reads each expression back from the catalog (the stop-words array
 * parsed again) and plans it at every executor start, and search_word_counts, a SQL function,
 * is parsed and planned again at every statement's first call. The statement cost 0.76-0.98 ms
 * with them, 0.71-0.80 ms with the trigger below filling them, and 0.58-0.75 ms with the columns
 * computed in the statement itself (prepared, planned once per connection).
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
