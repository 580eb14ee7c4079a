import type { Migration } from '../db/migration.js';

/**
 * Install codes, computers and their commands. A computer belongs to a user and, when its install
 * code was made with a Mind Key, to that mind: deleting the user or that mind deletes the computer
 * (and with it its commands), like every other piece of mind data.
 */
export const computersMigrations: Migration[] = [
  {
    name: '0400_computers',
    async up(db) {
      await db.schema.createTable('install_codes', (t) => {
        // Only the hash of the code is kept; the code itself is shown once.
        t.string('code_hash', 64).primary();
        t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.string('mind_id', 36).nullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('computer_name', 200).nullable();
        t.string('created_at', 30).notNullable();
        t.string('expires_at', 30).notNullable();
        t.string('used_at', 30).nullable();
        t.index(['user_id']);
        t.index(['mind_id']);
      });
      await db.schema.createTable('computers', (t) => {
        t.string('id', 36).primary();
        t.string('user_id', 36).notNullable().references('id').inTable('users').onDelete('CASCADE');
        t.string('mind_id', 36).nullable().references('id').inTable('minds').onDelete('CASCADE');
        t.string('token_hash', 64).notNullable().unique();
        t.string('computer_name', 200).notNullable();
        t.string('platform', 200).notNullable();
        t.string('platform_release', 200).notNullable();
        t.string('python', 200).notNullable();
        t.string('status', 16).notNullable();
        t.string('created_at', 30).notNullable();
        t.string('last_seen_at', 30).nullable();
        t.string('disabled_at', 30).nullable();
        t.index(['user_id', 'created_at']);
        t.index(['mind_id']);
      });
      await db.schema.createTable('commands', (t) => {
        // The sequence orders commands queued within the same millisecond (the agent runs them in order).
        t.increments('seq');
        t.string('id', 36).notNullable().unique();
        t.string('computer_id', 36).notNullable().references('id').inTable('computers').onDelete('CASCADE');
        t.string('type', 16).notNullable();
        t.text('payload').notNullable();
        t.string('status', 16).notNullable();
        t.text('result').nullable();
        t.text('error').nullable();
        t.integer('attempts').notNullable().defaultTo(0);
        t.string('created_at', 30).notNullable();
        t.string('sent_at', 30).nullable();
        t.string('completed_at', 30).nullable();
        // The poll: this computer's queued commands, oldest first; the list: newest first.
        t.index(['computer_id', 'status', 'seq'], 'commands_poll');
        t.index(['computer_id', 'seq'], 'commands_list');
        // The sweeper: lapsed `sent` leases and unfinished commands past their time to live.
        t.index(['status', 'sent_at'], 'commands_leases');
        t.index(['status', 'created_at'], 'commands_expiry');
      });
    },
    async down(db) {
      await db.schema.dropTable('commands');
      await db.schema.dropTable('computers');
      await db.schema.dropTable('install_codes');
    },
  },
  {
    // Screenshots apart from their commands: listing commands never reads a PNG.
    // A command's result keeps the rest of what the agent posted; `screenshot_bytes` says it has one.
    // Finished commands are purged by age (`completed_at`) and by count per computer (`commands_list`).
    name: '0401_command_screenshots',
    async up(db) {
      await db.schema.createTable('command_screenshots', (t) => {
        t.string('command_id', 36).primary().references('id').inTable('commands').onDelete('CASCADE');
        t.binary('png').notNullable();
      });
      await db.schema.alterTable('commands', (t) => {
        t.integer('screenshot_bytes').nullable();
        t.index(['completed_at'], 'commands_retention');
      });
      // Screenshots already stored inside results move out, a few at a time (each can be megabytes).
      let after = 0;
      for (;;) {
        const rows: Array<{ seq: number; id: string; result: string }> = await db('commands')
          .where('seq', '>', after)
          .whereNotNull('result')
          .where('result', 'like', '%"screenshot_b64"%')
          .orderBy('seq')
          .limit(20)
          .select('seq', 'id', 'result');
        if (rows.length === 0) break;
        for (const row of rows) {
          after = Number(row.seq);
          const parsed = JSON.parse(row.result) as Record<string, unknown>;
          const { screenshot_b64: b64, ...rest } = parsed;
          if (typeof b64 !== 'string') continue;
          const png = Buffer.from(b64, 'base64');
          await db('command_screenshots').insert({ command_id: row.id, png });
          await db('commands')
            .where({ id: row.id })
            .update({ result: JSON.stringify(rest), screenshot_bytes: png.length });
        }
      }
    },
    async down(db) {
      // Screenshots go back inside their results, where the code of that time reads them, a few at a time.
      let after = 0;
      for (;;) {
        const rows: Array<{ seq: number; id: string; result: string | null; png: Buffer }> = await db('commands as c')
          .join('command_screenshots as s', 's.command_id', 'c.id')
          .where('c.seq', '>', after)
          .orderBy('c.seq')
          .limit(20)
          .select('c.seq', 'c.id', 'c.result', 's.png');
        if (rows.length === 0) break;
        for (const row of rows) {
          after = Number(row.seq);
          const result = {
            ...(row.result ? (JSON.parse(row.result) as Record<string, unknown>) : {}),
            screenshot_b64: Buffer.from(row.png).toString('base64'),
          };
          await db('commands')
            .where({ id: row.id })
            .update({ result: JSON.stringify(result) });
        }
      }
      await db.schema.dropTable('command_screenshots');
      await db.schema.alterTable('commands', (t) => {
        t.dropIndex(['completed_at'], 'commands_retention');
        t.dropColumn('screenshot_bytes');
      });
    },
  },
  {
    name: '0402_computer_screens',
    async up(db) {
      // The screen the agent reports (registration, PUT /computers/me/screen); null until it does.
      await db.schema.alterTable('computers', (t) => {
        t.integer('screen_width').nullable();
        t.integer('screen_height').nullable();
        t.float('screen_scale_factor').nullable();
      });
    },
    async down(db) {
      await db.schema.alterTable('computers', (t) => {
        t.dropColumn('screen_width');
        t.dropColumn('screen_height');
        t.dropColumn('screen_scale_factor');
      });
    },
  },
  {
    name: '0403_queued_commands_count',
    // PostgreSQL: the queueing statement locks the computer's row, then counts its queue here: a
    // VOLATILE function reads with a snapshot of its own, so it sees what a request that held the lock
    // just committed (the statement's snapshot, taken before it waited, would not). In plpgsql its plan
    // is kept per connection (a sql function planned its count at every call: +0.5-1 ms a queue).
    // SQLite's one connection queues one request at a time.
    async up(db, dialect) {
      if (dialect.name !== 'postgres') return;
      await db.raw(`CREATE FUNCTION queued_commands_of(computer text) RETURNS integer VOLATILE LANGUAGE plpgsql AS $$
        BEGIN
          RETURN (SELECT count(*)::int FROM commands WHERE computer_id = computer AND status = 'queued');
        END
      $$`);
    },
    async down(db, dialect) {
      if (dialect.name !== 'postgres') return;
      await db.raw('DROP FUNCTION IF EXISTS queued_commands_of(text)');
    },
  },
  {
    name: '0404_install_codes_made_by',
    // Who made a code: `mind_key` codes register only within the mind's share (MIND_MAX_COMPUTERS_PER_MIND); `user` (a JWT) within the account's cap.
    async up(db) {
      await db.schema.alterTable('install_codes', (t) => {
        t.string('made_by', 16).notNullable().defaultTo('user');
      });
    },
    async down(db) {
      await db.schema.alterTable('install_codes', (t) => {
        t.dropColumn('made_by');
      });
    },
  },
];
