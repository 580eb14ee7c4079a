import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import type { CreateTaskParams, DeletedTask, ListTasksParams, Task, TaskList, UpdateTaskParams } from '../types.js';
import { Resource } from './resource.js';

/** Tasks of the client's mind (Mind Key). */
export class Tasks extends Resource {
  /**
   * Open tasks (`pending`, `in_progress`) unless `status` says otherwise (`all` for every task):
   * every page from `cursor` on (the start without one), fetched `limit` (default 100) at a time.
   */
  async list(params: ListTasksParams = {}, options?: RequestOptions): Promise<Task[]> {
    const tasks: Task[] = [];
    for await (const task of this.listAll(params, options)) tasks.push(task);
    return tasks;
  }

  /** One page of the list; pass `next_cursor` as `cursor` for the next (null: the last page). */
  async listPage(params: ListTasksParams = {}, options?: RequestOptions): Promise<TaskList> {
    return ok(this.api.tasks.listTasks({ query: params, requestOptions: options }));
  }

  /** Every task of the list, page after page: `for await (const t of client.tasks.listAll())`. */
  async *listAll(params: ListTasksParams = {}, options?: RequestOptions): AsyncGenerator<Task, void, undefined> {
    let cursor = params.cursor;
    do {
      const page = await this.listPage({ ...params, cursor }, options);
      yield* page.tasks;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /** Creates a `pending` task. Not retried unless `idempotent`. */
  async create(params: CreateTaskParams, options?: RequestOptions): Promise<Task> {
    return ok(this.api.tasks.createTask({ body: params, requestOptions: options }));
  }

  async get(taskId: string, options?: RequestOptions): Promise<Task> {
    return ok(this.api.tasks.getTask({ params: { id: param('taskId', taskId) }, requestOptions: options }));
  }

  /** Changes the given fields; `null` clears `description` or `due_at`. */
  async update(taskId: string, params: UpdateTaskParams, options?: RequestOptions): Promise<Task> {
    return ok(this.api.tasks.updateTask({ params: { id: param('taskId', taskId) }, body: params, requestOptions: options }));
  }

  /** Marks the task `done`. */
  async complete(taskId: string, options?: RequestOptions): Promise<Task> {
    return ok(this.api.tasks.completeTask({ params: { id: param('taskId', taskId) }, requestOptions: options }));
  }

  async delete(taskId: string, options?: RequestOptions): Promise<DeletedTask> {
    return ok(this.api.tasks.deleteTask({ params: { id: param('taskId', taskId) }, requestOptions: options }));
  }
}
