import { type Conn, runSql } from './database.js';

/** Words are letters and digits only (lib/search-words.ts), so they are safe as tsquery terms. */
export const tsqueryOf = (words: string[]) => words.join(' | ');

/** Where a PostgreSQL keyword index keeps its rows and each mind's BM25 statistics. */
export interface PostgresSearchTables {
  /** The table whose rows carry `search_vector` and `mind_id`. */
  rows: string;
  /** The mind's statistics table and its count column (memory_search_stats.memories, chat_search_stats.messages). */
  stats: string;
  count: string;
}

/**
 * BM25's statistics of a mind for a question, on PostgreSQL: its indexed rows, their average length,
 * and how many of the mind's rows hold each term (a word with its variants), in one statement.
 * Memories and chat rank alike (memories/ and chat/ keyword-index-postgres.ts).
 */
export async function postgresMindStatistics(conn: Conn, tables: PostgresSearchTables, mindId: string, groups: string[][]) {
  const holding = groups.map((_, i) => `count(*) FILTER (WHERE search_vector @@ to_tsquery('simple', ?)) AS d${i}`).join(', ');
  const [row] = await runSql<Record<string, string | number | null>>(
    conn,
    `SELECT s.${tables.count} AS indexed, s.words, h.* FROM (SELECT ${holding} FROM ${tables.rows}
       WHERE mind_id = ? AND search_vector @@ to_tsquery('simple', ?)) h
     LEFT JOIN ${tables.stats} s ON s.mind_id = ?`,
    [...groups.map(tsqueryOf), mindId, tsqueryOf([...new Set(groups.flat())]), mindId],
  );
  const indexed = Number(row?.indexed ?? 0);
  return {
    indexed,
    averageWords: indexed > 0 ? Number(row!.words) / indexed || 1 : 1,
    holding: groups.map((_, i) => Number(row?.[`d${i}`] ?? 0)),
  };
}
