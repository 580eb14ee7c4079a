import { type Conn, type DialectName, dialectOf } from '../db/database.js';
import type { KeywordIndex } from './keyword-index.js';
import { postgresKeywordIndex } from './keyword-index-postgres.js';
import { sqliteKeywordIndex } from './keyword-index-sqlite.js';

const INDEXES: Record<DialectName, KeywordIndex> = { sqlite: sqliteKeywordIndex, postgres: postgresKeywordIndex };

/** The keyword index of the database `conn` talks to (keyword-index.ts), as chat chooses its own. */
export const keywordIndexOf = (conn: Conn): KeywordIndex => INDEXES[dialectOf(conn).name];
