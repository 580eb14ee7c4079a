import type { Task, TaskPriority, TaskStatus } from '@mindservice/contract';
import { type Conn, type Dialect, runSql } from '../db/database.js';

interface TaskRow {
  id: string;
  mind_id: string;
  title: string;
  description: string | null;
  priority: TaskPriority;
  status: TaskStatus;
  due_at: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** 0 for `in_progress`, 1 otherwise: the list shows work in progress first. */
  status_rank: number;
  /** 0 critical .. 3 low. */
  priority_rank: number;
}

const COLUMNS = ['id', 'title', 'description', 'priority', 'status', 'due_at', 'created_at', 'updated_at', 'completed_at'] as const;

const PRIORITY_RANK: Record<TaskPriority, number> = { critical: 0, high: 1, normal: 2, low: 3 };
const statusRank = (status: TaskStatus) => (status === 'in_progress' ? 0 : 1);

/** The rank columns are derived from status and priority so one index serves the list order. */
function toRow(mindId: string, task: Task): TaskRow {
  return { ...task, mind_id: mindId, status_rank: statusRank(task.status), priority_rank: PRIORITY_RANK[task.priority] };
}

function toTask(row: Pick<TaskRow, (typeof COLUMNS)[number]>): Task {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    priority: row.priority,
    status: row.status,
    due_at: row.due_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    completed_at: row.completed_at,
  };
}

const INSERT_COLUMNS = [...COLUMNS, 'mind_id', 'status_rank', 'priority_rank'] as const;
// Every POST /mind/task runs it: a prepared statement (runSql), not knex's query builder.
const INSERT_TASK = `INSERT INTO tasks (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`;

export async function insertTask(conn: Conn, mindId: string, task: Task): Promise<void> {
  const row = toRow(mindId, task);
  await runSql(
    conn,
    INSERT_TASK,
    INSERT_COLUMNS.map((column) => row[column]),
  );
}

/** The task if it belongs to the mind; another mind's task is as absent as a missing one. */
export async function findTask(conn: Conn, mindId: string, id: string): Promise<Task | undefined> {
  const row = await conn<TaskRow>('tasks')
    .where({ id, mind_id: mindId })
    .first(...COLUMNS);
  return row && toTask(row);
}

/**
 * The same, locking the row until the transaction ends, so concurrent changes apply one after the
 * other (two completions record one task.completed). SQLite already runs one writer at a time.
 */
export async function findTaskForUpdate(conn: Conn, dialect: Dialect, mindId: string, id: string): Promise<Task | undefined> {
  const row = await dialect.forUpdate(conn<TaskRow>('tasks').where({ id, mind_id: mindId })).first(...COLUMNS);
  return row && toTask(row);
}

/** Writes every field of the task (already merged by the service); false if it is not the mind's. */
export async function updateTask(conn: Conn, mindId: string, task: Task): Promise<boolean> {
  const { id, mind_id: _mind, created_at: _created, ...fields } = toRow(mindId, task);
  return (await conn<TaskRow>('tasks').where({ id, mind_id: mindId }).update(fields)) > 0;
}

export async function deleteTask(conn: Conn, mindId: string, id: string): Promise<boolean> {
  return (await conn<TaskRow>('tasks').where({ id, mind_id: mindId }).delete()) > 0;
}

/** Where a page of the task list ended: the list-order key of its last task. */
export interface TaskListPosition {
  statusRank: number;
  priorityRank: number;
  dueAt: string | null;
  createdAt: string;
  id: string;
}

/**
 * One page of the mind's tasks with the given statuses (all when omitted), in the list order:
 * `in_progress` first, then priority, then due_at (none last), then creation (id breaks ties).
 * Keyset paging from `after` on the tasks_list_order index: a page costs the same however deep, and
 * tasks completed on earlier pages do not shift later ones. Reads `limit + 1` rows to know whether
 * another page follows.
 */
export async function listTasks(
  conn: Conn,
  mindId: string,
  page: { statuses?: TaskStatus[]; limit: number; after?: TaskListPosition },
): Promise<{ tasks: Task[]; last?: TaskListPosition }> {
  const at = page.after;
  if (!at) return pageOf(await firstPage(conn, mindId, page), page.limit);
  const query = conn<TaskRow>('tasks').where({ mind_id: mindId });
  if (page.statuses) query.whereIn('status', page.statuses);
  // (status_rank, priority_rank, due_at nulls last, created_at, id) > the position, spelled out
  // because a row comparison would not order the NULL due_at as the list does.
  const laterSameDue = (q: import('knex').Knex.QueryBuilder) =>
    q.where('created_at', '>', at.createdAt).orWhere((w) => w.where('created_at', at.createdAt).where('id', '>', at.id));
  query.where((w) =>
    w.where('status_rank', '>', at.statusRank).orWhere((s) =>
      s.where('status_rank', at.statusRank).where((p) =>
        p.where('priority_rank', '>', at.priorityRank).orWhere((q) => {
          q.where('priority_rank', at.priorityRank);
          const due = at.dueAt;
          if (due === null) q.whereNull('due_at').where(laterSameDue);
          else
            q.where((d) =>
              d
                .whereNull('due_at')
                .orWhere('due_at', '>', due)
                .orWhere((e) => e.where('due_at', due).where(laterSameDue)),
            );
        }),
      ),
    ),
  );
  return pageOf(await inListOrder(query, page.limit), page.limit);
}

/** The list order (see listTasks), `limit + 1` rows. */
const inListOrder = (query: import('knex').Knex.QueryBuilder<TaskRow>, limit: number): Promise<TaskRow[]> =>
  query
    .orderBy('status_rank')
    .orderBy('priority_rank')
    // knex compiles 'last' to `due_at is null` on SQLite and `nulls last` on PostgreSQL; the
    // plain due_at after it orders the dated tasks on SQLite (a no-op on PostgreSQL).
    .orderBy('due_at', 'asc', 'last')
    .orderBy('due_at')
    .orderBy('created_at')
    .orderBy('id')
    // A literal LIMIT (a validated small integer): with a bound one SQLite sorts the same rows slower.
    .limit(limit + 1, { skipBinding: true })
    .select(...COLUMNS) as unknown as Promise<TaskRow[]>;

/**
 * The first page, asked by every agent that lists its tasks: the SQL text is built once per status
 * set and limit (knex would build the same text on every request) and run as a cached statement.
 */
const firstPageSql = new Map<string, string>();
function firstPage(conn: Conn, mindId: string, page: { statuses?: TaskStatus[]; limit: number }): Promise<TaskRow[]> {
  const { sql, bindings } = firstPageStatement(conn, mindId, page);
  return runSql<TaskRow>(conn, sql, bindings);
}

/** The first page's statement (tests read its plan). */
export function firstPageStatement(conn: Conn, mindId: string, page: { statuses?: TaskStatus[]; limit: number }) {
  const bindings = [mindId, ...(page.statuses ?? [])];
  // knex builds different text per database (its client's SQL dialect).
  const key = `${conn.client.dialect} ${page.limit} ${page.statuses?.join(',') ?? ''}`;
  let sql = firstPageSql.get(key);
  if (sql === undefined) {
    const query = conn<TaskRow>('tasks').where({ mind_id: mindId });
    if (page.statuses) query.whereIn('status', page.statuses);
    const compiled = inListOrder(query, page.limit) as unknown as import('knex').Knex.QueryBuilder;
    const built = compiled.toSQL();
    if (JSON.stringify(built.bindings) !== JSON.stringify(bindings)) throw new Error('task list: unexpected bindings');
    sql = built.sql;
    if (firstPageSql.size < 1000) firstPageSql.set(key, sql);
  }
  return { sql, bindings };
}

function pageOf(rows: TaskRow[], limit: number): { tasks: Task[]; last?: TaskListPosition } {
  const more = rows.length > limit;
  const tasks = (more ? rows.slice(0, limit) : rows).map(toTask);
  const lastTask = tasks[tasks.length - 1];
  return { tasks, last: more && lastTask ? listPositionOf(lastTask) : undefined };
}

/** Where a task stands in the list order (a page that ends at it continues after it). */
export function listPositionOf(task: Task): TaskListPosition {
  return {
    // The ranks follow from the status and priority (as stored by toRow), so they are not read.
    statusRank: statusRank(task.status),
    priorityRank: PRIORITY_RANK[task.priority],
    dueAt: task.due_at,
    createdAt: task.created_at,
    id: task.id,
  };
}

/** For mind export: every task of the mind, any status, oldest first. */
export async function listTasksForExport(conn: Conn, mindId: string): Promise<Task[]> {
  const rows = await conn<TaskRow>('tasks')
    .where({ mind_id: mindId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(...COLUMNS);
  return rows.map(toTask);
}

/** For mind import: inserts the record as given, id included (the caller handles conflicts). */
export async function insertImportedTask(conn: Conn, mindId: string, task: Task): Promise<void> {
  await insertTask(conn, mindId, task);
}
