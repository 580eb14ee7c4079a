import { createRequire } from 'node:module';

/** A start that cannot work until something is installed; the CLI prints its message as one line. */
export class StartupError extends Error {}

const require = createRequire(import.meta.url);

/**
 * Opens better-sqlite3 once before knex does, so a driver that was never compiled (an install that
 * could not build it) stops the start with one line saying what to run, not a list of 13 paths.
 */
let loaded = false;

export function assertSqliteDriverLoads(): void {
  if (loaded) return;
  try {
    const Database = require('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    loaded = true;
  } catch (err) {
    const detail = (err instanceof Error ? (err.message.split('\n')[0] ?? '') : String(err)).replace(/ Tried:$/, '');
    throw new StartupError(
      `SQLite's driver (better-sqlite3) is not built for Node ${process.version}: run \`pnpm rebuild -r better-sqlite3\` ` +
        `and start again, or set DATABASE_URL to use PostgreSQL (${detail}).`,
    );
  }
}
