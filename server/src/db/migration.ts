import type { Knex } from 'knex';
import type { Dialect, DialectName } from './dialect.js';
import { dialectOf } from './dialects.js';

export interface Migration {
  name: string;
  /** Runs only on these databases; elsewhere it is recorded as applied and changes nothing. */
  onlyOn?: DialectName[];
  up(db: Knex, dialect: Dialect): Promise<void>;
  down(db: Knex, dialect: Dialect): Promise<void>;
}

/** The migration as knex runs it (knex hands `up` the connection alone): given the dialect of that connection, skipped where it does not apply. */
export function withDialect(migration: Migration): Knex.Migration {
  const step = (run: Migration['up']) => async (db: Knex) => {
    const dialect = dialectOf(db);
    if (!migration.onlyOn || migration.onlyOn.includes(dialect.name)) await run(db, dialect);
  };
  return { up: step(migration.up), down: step(migration.down) };
}
