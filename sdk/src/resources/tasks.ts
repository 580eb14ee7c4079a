import { ok, param } from '../core/api.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, pagesByCursor } from '../core/pagination.js';
import type { CreateTaskParams, DeletedTask, ListTasksParams, Task, UpdateTaskParams } from '../types.js';
import { Resource } from './resource.js';

/** Tasks of the client's mind (Mind Key). */
export class Tasks extends Resource {
  /**
   * Open tasks (`pending`, `in_progress`) unless `status` says otherwise (`all` for every task), `limit`
   * (default 100) a page. `await` it for the first page; `for await (const task of client.tasks.list())`
   * walks every task of every page.
   */
  list(params: ListTasksParams = {}, options?: RequestOptions): PagePromise<Task> {
    return pagesByCursor(params.cursor, async (cursor) => {
      const body = await ok(this.api.tasks.listTasks({ query: { ...params, cursor }, requestOptions: options }));
      return [body.tasks, body.next_cursor];
    });
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

  /** Deletes the task; the service confirms with `{ deleted: true, id }`. */
  async delete(taskId: string, options?: RequestOptions): Promise<DeletedTask> {
    return ok(this.api.tasks.deleteTask({ params: { id: param('taskId', taskId) }, requestOptions: options }));
  }
}
