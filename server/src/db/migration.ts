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

/** A folder's part of a migration that creates several folders' tables at once (server/src/migrations.ts). */
export type MigrationStep = Omit<Migration, 'name'>;

/** One migration made of steps that different folders own: up runs them in order, down in reverse. */
export function migrationOf(name: string, steps: MigrationStep[]): Migration {
  return {
    name,
    async up(db, dialect) {
      for (const step of steps) await step.up(db, dialect);
    },
    async down(db, dialect) {
      for (const step of [...steps].reverse()) await step.down(db, dialect);
    },
  };
}

/** The migrations as knex runs them, in the order given (the composition root's list). */
export function migrationSourceOf(migrations: Migration[]): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => migrations,
    getMigrationName: (m) => m.name,
    getMigration: async (m) => withDialect(m),
  };
}
