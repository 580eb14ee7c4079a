import type { Knex } from 'knex';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** A folder's part of a migration that creates several folders' tables at once (server/src/migrations.ts). */
export type MigrationStep = Omit<Migration, 'name'>;

/** One migration made of steps that different folders own: up runs them in order, down in reverse. */
export function migrationOf(name: string, steps: MigrationStep[]): Migration {
  return {
    name,
    async up(db) {
      for (const step of steps) await step.up(db);
    },
    async down(db) {
      for (const step of [...steps].reverse()) await step.down(db);
    },
  };
}

/** The migrations as knex runs them, in the order given (the composition root's list). */
export function migrationSourceOf(migrations: Migration[]): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => migrations,
    getMigrationName: (m) => m.name,
    getMigration: async (m) => m,
  };
}
