import type { contract } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import type { Area } from '../core/area.js';
import { TasksService } from './service.js';

export function tasksArea(ctx: AppContext): Area<typeof contract.tasks> {
  const tasks = new TasksService(ctx);
  return {
    handlers: {
      listTasks: async ({ query, caller }) => ({ status: 200, body: await tasks.list(caller.mindId, query) }),
      createTask: async ({ body, caller }) => ({ status: 201, body: await tasks.create(caller.mindId, body) }),
      createTaskFromQuery: async ({ query, caller }) => ({ status: 201, body: await tasks.create(caller.mindId, query, 'query') }),
      getTask: async ({ params, caller }) => ({ status: 200, body: await tasks.get(caller.mindId, params.id) }),
      updateTask: async ({ params, body, caller }) => ({ status: 200, body: await tasks.update(caller.mindId, params.id, body) }),
      completeTask: async ({ params, caller }) => ({ status: 200, body: await tasks.complete(caller.mindId, params.id) }),
      deleteTask: async ({ params, caller }) => {
        await tasks.delete(caller.mindId, params.id);
        return { status: 200, body: { deleted: true as const, id: params.id } };
      },
    },
  };
}
