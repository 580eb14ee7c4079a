import { resolve } from 'node:path';
import { loadConfig, ConfigError, type Config } from './lib/config.js';
import { dialectFor, migrateLatest, openDatabase } from './db/database.js';
import { findMind, setMindDisabled } from './minds/store.js';
import { reindex } from './meaning/reindex.js';
import { migrations } from './migrations.js';
import { serve } from './serve.js';

const HELP: Record<string, string> = {
  main: `Usage: mind-service <command> [options]

Commands:
  start                 start the service (what \`pnpm start\` runs)
  migrate               apply pending database migrations and exit
  mind disable <id>     refuse the mind's Mind Key (403) and keep its data
  mind enable <id>      accept the mind's Mind Key again
  backup <file>         write a consistent copy of the SQLite database while the service runs
  reindex [<mind-id>]   embed every memory again (recall by meaning), with a progress line

Configuration comes from environment variables (PORT, HOST, MIND_DATA_DIR, DATABASE_URL, ...):
see docs/configuration.md. Every command takes --help.`,
  start:
    'Usage: mind-service start\n\nStarts the service on HOST:PORT (default 127.0.0.1:3000) with migrations applied.\nSIGTERM or SIGINT drains it gracefully and exits 0.',
  migrate:
    'Usage: mind-service migrate\n\nApplies pending migrations to the configured database and exits. An up-to-date database is left unchanged.',
  mind: 'Usage: mind-service mind disable <mind-id>\n       mind-service mind enable <mind-id>\n\nA disabled mind answers 403 to its Mind Key; its data is kept. Mind ids are listed by GET /minds.',
  reindex:
    'Usage: mind-service reindex [<mind-id>]\n\nQueues every memory (of one mind, or all) for embedding with the configured embedder (MIND_EMBEDDINGS) and embeds\nthem in this process, printing its progress. A running service embeds what is queued too; each memory gets one vector.',
  backup:
    "Usage: mind-service backup <file>\n\nCopies the SQLite database to <file> with SQLite's online backup (safe while the service runs).\nOn PostgreSQL use pg_dump instead.",
};

class UsageError extends Error {}

async function withDatabase<T>(config: Config, fn: (db: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const db = openDatabase(config);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}

async function run(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    console.log(HELP.main);
    return command ? 0 : 2;
  }
  if (!(command in HELP) || command === 'main') throw new UsageError(`Unknown command "${command}".`);
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(HELP[command]);
    return 0;
  }
  const config = loadConfig();

  switch (command) {
    case 'start':
      if (rest.length) throw new UsageError(`start takes no arguments (got ${rest.join(' ')}).`);
      await serve(config);
      return -1; // keeps running
    case 'migrate': {
      if (rest.length) throw new UsageError(`migrate takes no arguments (got ${rest.join(' ')}).`);
      const applied = await withDatabase(config, (db) => migrateLatest(db, migrations));
      console.log(
        applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date; nothing changed.',
      );
      return 0;
    }
    case 'mind': {
      const [action, id, ...extra] = rest;
      if ((action !== 'disable' && action !== 'enable') || !id || extra.length) {
        throw new UsageError('Use `mind-service mind disable <mind-id>` or `mind-service mind enable <mind-id>`.');
      }
      return withDatabase(config, async (db) => {
        if (!(await findMind(db, id))) {
          console.error(`No mind with id ${id}.`);
          return 1;
        }
        await setMindDisabled(db, id, action === 'disable' ? new Date().toISOString() : null);
        console.log(`Mind ${id} is ${action === 'disable' ? 'disabled: its Mind Key now gets 403' : 'enabled'}.`);
        return 0;
      });
    }
    case 'reindex': {
      const [mindId, ...extra] = rest;
      if (extra.length) throw new UsageError('Use `mind-service reindex` or `mind-service reindex <mind-id>`.');
      return withDatabase(config, async (db) => {
        if (mindId && !(await findMind(db, mindId))) {
          console.error(`No mind with id ${mindId}.`);
          return 1;
        }
        return reindex(config, db, mindId);
      });
    }
    case 'backup': {
      const [file, ...extra] = rest;
      if (!file || extra.length) throw new UsageError('Use `mind-service backup <file>`.');
      // `pnpm mind-service` runs in the repository root: a relative name means where the user typed it (INIT_CWD).
      const { file: written, pages } = await dialectFor(config).backup(config, resolve(process.env.INIT_CWD ?? '.', file));
      console.log(`Backup written to ${written} (${pages} pages).`);
      return 0;
    }
  }
  return 2;
}

run(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err) => {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n\n${HELP.main}`);
      process.exit(2);
    }
    console.error(err instanceof ConfigError ? err.message : `mind-service: ${err instanceof Error ? err.message : err}`);
    process.exit(err instanceof ConfigError ? 2 : 1);
  },
);
