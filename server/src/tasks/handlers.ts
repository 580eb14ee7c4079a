import type { contract } from '@mindservice/contract';
import type { AppContext } from '../context.js';
import { mindCaller } from '../http/caller.js';
import type { RouterImpl } from '../http/router.js';
import { TasksService } from './service.js';

export function tasksHandlers(ctx: AppContext): RouterImpl<typeof contract.tasks> {
  const tasks = new TasksService(ctx);
  return {
    listTasks: async ({ query, req }) => ({ status: 200, body: { tasks: await tasks.list(mindCaller(req).mindId, query.status) } }),
    createTask: async ({ body, req }) => ({ status: 201, body: await tasks.create(mindCaller(req).mindId, body) }),
    createTaskFromQuery: async ({ query, req }) => ({ status: 201, body: await tasks.create(mindCaller(req).mindId, query, 'query') }),
    getTask: async ({ params, req }) => ({ status: 200, body: await tasks.get(mindCaller(req).mindId, params.id) }),
    updateTask: async ({ params, body, req }) => ({ status: 200, body: await tasks.update(mindCaller(req).mindId, params.id, body) }),
    completeTask: async ({ params, req }) => ({ status: 200, body: await tasks.complete(mindCaller(req).mindId, params.id) }),
    deleteTask: async ({ params, req }) => {
      await tasks.delete(mindCaller(req).mindId, params.id);
      return { status: 200, body: { deleted: true as const, id: params.id } };
    },
  };
}
