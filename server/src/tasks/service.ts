import { z } from 'zod';
import { type CreateTaskBody, MAX_TASKS_PAGE, type Task, type TaskStatus, type UpdateTaskBody } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Trx } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { cursorInteger, cursorText, decodePageCursor, encodePageCursor, itemsWithinBytes } from '../http/cursor.js';
import { newId } from '../lib/secrets.js';
import {
  deleteTask,
  findTask,
  findTaskForUpdate,
  insertTask,
  listPositionOf,
  listTasks,
  type TaskListPosition,
  updateTask,
} from './store.js';

export type TaskListFilter = TaskStatus | 'all';

/** Without a filter the list shows the open tasks. */
const OPEN: TaskStatus[] = ['pending', 'in_progress'];

const EDITABLE = ['title', 'description', 'priority', 'status', 'due_at'] as const;

/**
 * A valid ISO date or date-time (the contract checked that) as a UTC date-time with milliseconds;
 * a date alone is midnight UTC. Years past 9999 (reachable through an offset) would not sort as text.
 */
export function normaliseDueAt(value: string, field: string): string {
  const iso = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value).toISOString();
  if (!/^\d{4}-/.test(iso)) throw ApiError.invalidField(field, 'must be before the year 10000 in UTC');
  return iso;
}

/** A cursor is the last shown task's place in the list order, base64url JSON: opaque to clients. */
function encodeTaskCursor(at: TaskListPosition): string {
  return encodePageCursor([1, at.statusRank, at.priorityRank, at.dueAt, at.createdAt, at.id]);
}

const rank = cursorInteger(0, 3);
// Times are ISO text (30 characters at most in the database), ids UUIDs: a little room either side.
const TaskCursor = z.tuple([z.literal(1), rank, rank, cursorText(40).nullable(), cursorText(40), cursorText(64)]);

function decodeTaskCursor(cursor: string): TaskListPosition {
  const [, statusRank, priorityRank, dueAt, createdAt, id] = decodePageCursor(cursor, TaskCursor, 'GET /mind/tasks');
  return { statusRank, priorityRank, dueAt, createdAt, id };
}

export class TasksService {
  constructor(private readonly ctx: AppContext) {}

  /** `source` names where the fields came from (`body` or `query`) so errors name the right field. */
  async create(mindId: string, input: CreateTaskBody, source: 'body' | 'query' = 'body'): Promise<Task> {
    const now = this.now();
    const task: Task = {
      id: newId(),
      title: input.title,
      description: input.description ?? null,
      priority: input.priority ?? 'normal',
      status: 'pending',
      due_at: input.due_at == null ? null : normaliseDueAt(input.due_at, `${source}.due_at`),
      created_at: now,
      updated_at: now,
      completed_at: null,
    };
    await this.ctx.db.transaction(async (trx) => {
      await insertTask(trx, mindId, task);
      await this.ctx.events.record(trx, mindId, 'task.created', task);
    });
    return task;
  }

  /** One page of the list (see store.ts listTasks for the order and why keyset). */
  async list(
    mindId: string,
    query: { status?: TaskListFilter; limit?: number; cursor?: string } = {},
  ): Promise<{ tasks: Task[]; next_cursor: string | null }> {
    const status = query.status;
    const statuses = status === undefined ? OPEN : status === 'all' ? undefined : [status];
    const after = query.cursor === undefined ? undefined : decodeTaskCursor(query.cursor);
    const page = await listTasks(this.ctx.db, mindId, { statuses, limit: query.limit ?? MAX_TASKS_PAGE, after });
    // Ends early at the page's byte bound, after the last task that fits.
    const fit = itemsWithinBytes(page.tasks, this.ctx.config.pageMaxBytes);
    if (fit < page.tasks.length) {
      const tasks = page.tasks.slice(0, fit);
      return { tasks, next_cursor: encodeTaskCursor(listPositionOf(tasks[fit - 1]!)) };
    }
    return { tasks: page.tasks, next_cursor: page.last ? encodeTaskCursor(page.last) : null };
  }

  async get(mindId: string, id: string): Promise<Task> {
    const task = await findTask(this.ctx.db, mindId, id);
    if (!task) throw ApiError.notFound('Task');
    return task;
  }

  update(mindId: string, id: string, body: UpdateTaskBody): Promise<Task> {
    const changes: Partial<Task> = {
      ...body,
      due_at: body.due_at == null ? body.due_at : normaliseDueAt(body.due_at, 'body.due_at'),
    };
    return this.change(mindId, id, changes);
  }

  complete(mindId: string, id: string): Promise<Task> {
    return this.change(mindId, id, { status: 'done' });
  }

  async delete(mindId: string, id: string): Promise<void> {
    await this.ctx.db.transaction(async (trx) => {
      if (!(await deleteTask(trx, mindId, id))) throw ApiError.notFound('Task');
      await this.ctx.events.record(trx, mindId, 'task.deleted', { id });
    });
  }

  /**
   * Applies the given fields (undefined leaves a field, null clears it) in one transaction with its
   * events: `task.updated`, and also `task.completed` when the status became `done`.
   * A request that changes nothing writes nothing and records no event.
   */
  private change(mindId: string, id: string, changes: Partial<Task>): Promise<Task> {
    return this.ctx.db.transaction(async (trx: Trx) => {
      const current = await findTaskForUpdate(trx, this.ctx.dialect, mindId, id);
      if (!current) throw ApiError.notFound('Task');
      const next: Task = { ...current };
      for (const field of EDITABLE) {
        if (changes[field] !== undefined) Object.assign(next, { [field]: changes[field] });
      }
      if (EDITABLE.every((field) => next[field] === current[field])) return current;

      const now = this.now();
      next.updated_at = now;
      const becameDone = next.status === 'done' && current.status !== 'done';
      if (becameDone) next.completed_at = now;
      else if (next.status !== 'done') next.completed_at = null;

      await updateTask(trx, mindId, next);
      // Every change is a task.updated (the spec's current name for status changes); becoming done
      // is also a task.completed, so subscribers to either name hear about completions.
      await this.ctx.events.record(trx, mindId, 'task.updated', next);
      if (becameDone) await this.ctx.events.record(trx, mindId, 'task.completed', next);
      return next;
    });
  }

  private now() {
    return this.ctx.clock.now().toISOString();
  }
}
