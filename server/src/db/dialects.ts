import type { Config } from '../lib/config.js';
import type { Conn, Dialect } from './dialect.js';
import { postgresDialect } from './postgres-dialect.js';
import { sqliteDialect } from './sqlite-dialect.js';

/** Every dialect, by its knex client. A new database adds its dialect here and a rule to dialectFor. */
const BY_DRIVER = new Map<string, Dialect>([sqliteDialect, postgresDialect].map((d) => [d.driver, d]));

/** The database the config names: PostgreSQL with DATABASE_URL, else SQLite in the data directory. Chosen once at start. */
export const dialectFor = (config: Config): Dialect => (config.databaseUrl ? postgresDialect : sqliteDialect);

/**
 * The dialect a connection was opened with, for what is handed only a connection: runSql, and the
 * migrations, which knex calls with the connection alone.
 */
export function dialectOf(conn: Conn): Dialect {
  const driver = conn.client.config.client as string;
  const dialect = BY_DRIVER.get(driver);
  if (!dialect) throw new Error(`no dialect for the knex client ${String(driver)}`);
  return dialect;
}
