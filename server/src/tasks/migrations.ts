import type { Migration } from '../db/migration.js';

/** Tasks per mind; deleting the mind deletes its tasks. */
export const tasksMigrations: Migration[] = [
  {
    name: '0200_tasks',
    async up(db) {
      await db.schema.createTable('tasks', (t) => {
        t.string('id', 36).primary();
        t.string('mind_id', 36).notNullable().references('id').inTable('minds').onDelete('CASCADE');
        t.text('title').notNullable();
        t.text('description').nullable();
        t.string('priority', 16).notNullable();
        t.string('status', 16).notNullable();
        t.string('due_at', 30).nullable();
        t.string('created_at', 30).notNullable();
        t.string('updated_at', 30).notNullable();
        t.string('completed_at', 30).nullable();
        // Derived from status and priority (see store.ts) so this index follows the list order.
        t.smallint('status_rank').notNullable();
        t.smallint('priority_rank').notNullable();
        t.index(['mind_id', 'status_rank', 'priority_rank', 'due_at', 'created_at'], 'tasks_list_order');
      });
    },
    async down(db) {
      await db.schema.dropTable('tasks');
    },
  },
  {
    // SQLite sorts NULLs first: with `due_at IS NULL` in the index the list is read in order and stops
    // at the page's end, instead of sorting every task of the mind (PostgreSQL's index sorts NULLs last).
    name: '0201_tasks_list_order_sqlite',
    onlyOn: ['sqlite'],
    async up(db) {
      await db.raw('DROP INDEX tasks_list_order');
      await db.raw('CREATE INDEX tasks_list_order ON tasks (mind_id, status_rank, priority_rank, due_at IS NULL, due_at, created_at, id)');
    },
    async down(db) {
      await db.raw('DROP INDEX tasks_list_order');
      await db.raw('CREATE INDEX tasks_list_order ON tasks (mind_id, status_rank, priority_rank, due_at, created_at)');
    },
  },
];
