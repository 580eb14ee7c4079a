import knex, { type Knex } from 'knex';
import type { Config } from '../lib/config.js';
import type { Conn, Db } from './dialect.js';
import { dialectFor, dialectOf } from './dialects.js';
import { type Migration, migrationSourceOf } from './migration.js';

export type { Conn, Db, Dialect, DialectName, Trx } from './dialect.js';
export { dialectFor, dialectOf } from './dialects.js';
export { type SqliteConnection, sqliteConnection, sqliteFile } from './sqlite-dialect.js';

/**
 * Runs `sql` (`?` placeholders; the same text for every database) on the hot paths, where knex's
 * query building and runner cost more than the statement (each dialect's `run`). Answers the rows a
 * SELECT finds.
 */
export function runSql<Row = unknown>(conn: Conn, sql: string, bindings: unknown[] = []): Promise<Row[]> {
  return dialectOf(conn).run<Row>(conn, sql, bindings);
}

export const openDatabase = (config: Config): Db => dialectFor(config).open(config);

/** Applies the migrations not yet applied (the composition root's list, server/src/migrations.ts); answers their names. */
export async function migrateLatest(db: Db, migrations: Migration[]): Promise<string[]> {
  // A migration may rewrite a large table for longer than a request's statement timeout: it runs on a
  // connection of its own without one.
  const connection = db.client.config.connection as { statement_timeout?: number } | string | undefined;
  if (typeof connection === 'object' && connection.statement_timeout) {
    const unlimited = knex({
      ...(db.client.config as Knex.Config),
      connection: { ...connection, statement_timeout: undefined },
      pool: { min: 0, max: 1 },
    });
    try {
      return await migrateLatest(unlimited, migrations);
    } finally {
      await unlimited.destroy();
    }
  }
  const [, applied] = (await db.migrate.latest({ migrationSource: migrationSourceOf(migrations) })) as [number, string[]];
  return applied;
}
