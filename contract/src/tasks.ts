import {
  atLeastOneOf,
  bodyErrors,
  QueryInteger,
  c,
  errors,
  Id,
  IsoDateOrDateTime,
  meta,
  mindKeyErrors,
  NonBlank,
  NullableTimestamp,
  routerOptions,
  Timestamp,
  PAGE_BYTES,
  PageCursor,
  NextCursor,
} from './common.js';
import { z } from './zod.js';

export const TaskPriority = z.enum(['low', 'normal', 'high', 'critical']).openapi('TaskPriority', {
  description: '`low` not urgent, `normal` the default, `high` important, `critical` must be done at once.',
  example: 'high',
});
export type TaskPriority = z.infer<typeof TaskPriority>;

export const TaskStatus = z
  .enum(['pending', 'in_progress', 'done', 'cancelled'])
  .openapi('TaskStatus', { description: 'Any status may move to any other. New tasks are `pending`.', example: 'in_progress' });
export type TaskStatus = z.infer<typeof TaskStatus>;

export const DueAt = IsoDateOrDateTime.openapi({
  description: 'ISO 8601 date or date-time with a zone; stored as a UTC date-time.',
  example: '2026-12-01T09:00:00Z',
});

export const Task = z
  .object({
    id: Id('Task'),
    title: z.string().openapi({ example: 'Summarise the three papers' }),
    description: z.string().nullable().openapi({ example: 'Two paragraphs each, with citations.' }),
    priority: TaskPriority,
    status: TaskStatus,
    due_at: NullableTimestamp('When the task is due').openapi({ example: '2026-12-01T09:00:00.000Z' }),
    created_at: Timestamp('When the task was created'),
    updated_at: Timestamp('When the task last changed'),
    completed_at: NullableTimestamp('When the task became `done`; cleared when it leaves `done`'),
  })
  .openapi('Task');
export type Task = z.infer<typeof Task>;

const Title = NonBlank(500).openapi({ description: 'What is to be done, in a line.', example: 'Summarise the three papers' });
const Description = z
  .string()
  .max(20000)
  .openapi({ description: 'Details: how, why, what done means.', example: 'Two paragraphs each, with citations.' });

export const CreateTaskBody = z
  .object({
    title: Title,
    description: Description.nullish(),
    priority: TaskPriority.optional(),
    due_at: DueAt.nullish(),
  })
  .openapi('CreateTaskBody', {
    example: {
      title: 'Summarise the three papers',
      description: 'Two paragraphs each, with citations.',
      priority: 'high',
      due_at: '2026-12-01',
    },
  });
export type CreateTaskBody = z.infer<typeof CreateTaskBody>;

export const CreateTaskQuery = z
  .object({
    title: Title.openapi({ description: 'Task title, 1..500 characters.' }),
    description: Description.optional().openapi({ description: 'Longer text, up to 20,000 characters.' }),
    priority: TaskPriority.optional().openapi({ description: 'low, normal (default), high or critical.' }),
    due_at: DueAt.optional(),
  })
  .openapi('CreateTaskQuery');

export const UpdateTaskBody = atLeastOneOf(
  z.object({
    title: Title.optional(),
    description: Description.nullish().openapi({ description: 'null clears it.' }),
    priority: TaskPriority.optional(),
    status: TaskStatus.optional(),
    due_at: DueAt.nullish().openapi({ description: 'ISO 8601 date or date-time with a zone; null clears it.' }),
  }),
).openapi('UpdateTaskBody', {
  description: 'Only the fields given change (at least one); unknown fields are ignored.',
  example: { status: 'in_progress', priority: 'critical', due_at: '2026-12-01T09:00:00+02:00' },
});
export type UpdateTaskBody = z.infer<typeof UpdateTaskBody>;

export const TaskStatusFilter = z
  .enum(['pending', 'in_progress', 'done', 'cancelled', 'all'])
  .openapi({ description: 'Without it: the open tasks (`pending` and `in_progress`). `all` lists every task.' });

/** The most tasks one page of GET /mind/tasks holds (and its default). */
export const MAX_TASKS_PAGE = 100;

export const TaskListQuery = z.object({
  status: TaskStatusFilter.optional(),
  limit: QueryInteger(1, MAX_TASKS_PAGE)
    .optional()
    .openapi({ description: `Tasks per page, 1..${MAX_TASKS_PAGE}, default ${MAX_TASKS_PAGE}.` }),
  cursor: PageCursor(500, '`next_cursor` of the previous page (with the same `status`).'),
});

export const TaskList = z
  .object({
    tasks: z.array(Task),
    next_cursor: NextCursor(
      'WzEsMSwxLCIyMDI2LTEyLTAxVDA5OjAwOjAwLjAwMFoiLCIyMDI2LTExLTIyVDAxOjI5OjQyLjEyM1oiLCIwYjZmNWE2Mi0zZjVlLTRlOGUtOWE1Mi0yYzdkM2YzZjFhMTAiXQ',
    ),
  })
  .openapi('TaskList');
export const DeletedTask = z.object({ deleted: z.literal(true), id: Id('Task') }).openapi('DeletedTask');

const auth = meta('mindKey', 'Tasks');

/** The example id is a placeholder: use the `id` of a task you created or listed. */
const TaskIdParams = z.object({
  id: Id('Task').openapi({ description: 'Task id (UUID).' }),
});

export const tasksContract = c.router(
  {
    listTasks: {
      method: 'GET',
      path: '/mind/tasks',
      summary: 'List tasks',
      description: `Tasks of the key's mind, at most \`limit\` (default 100) a page, ${PAGE_BYTES}. Order: \`in_progress\` first, then priority (critical, high, normal, low), then \`due_at\` (earliest first, none last), then creation. Page with \`next_cursor\`: a task is never shown twice or skipped while it keeps its place in the order; one that changes status, priority or due date between pages may move across the page boundary.`,
      query: TaskListQuery,
      responses: { 200: TaskList, ...errors(400) },
      metadata: auth,
    },
    createTask: {
      method: 'POST',
      path: '/mind/task',
      summary: 'Create a task',
      description: 'Creates a `pending` task (priority `normal` unless given).',
      body: CreateTaskBody,
      responses: { 201: Task, ...bodyErrors },
      metadata: auth,
    },
    createTaskFromQuery: {
      method: 'GET',
      path: '/mind/task',
      summary: 'Create a task from query parameters',
      description:
        'The same as POST /mind/task for tools that can only fetch URLs: `GET /mind/task?key=mk_...&title=Buy+milk&priority=high`.',
      query: CreateTaskQuery,
      responses: { 201: Task, ...errors(400) },
      metadata: meta('mindKey', 'Tasks', { idempotent: false, writes: true }),
    },
    getTask: {
      method: 'GET',
      path: '/mind/task/:id',
      summary: 'Get a task',
      pathParams: TaskIdParams,
      responses: { 200: Task, ...errors(404) },
      metadata: auth,
    },
    updateTask: {
      method: 'PUT',
      path: '/mind/task/:id',
      summary: 'Update a task',
      description: 'Changes the given fields. Setting `status` to `done` sets `completed_at`; leaving `done` clears it.',
      pathParams: TaskIdParams,
      body: UpdateTaskBody,
      responses: { 200: Task, ...errors(404), ...bodyErrors },
      metadata: auth,
    },
    completeTask: {
      method: 'GET',
      path: '/mind/task/:id/complete',
      summary: 'Mark a task done',
      pathParams: TaskIdParams,
      responses: { 200: Task, ...errors(404) },
      metadata: meta('mindKey', 'Tasks', { writes: true }),
    },
    deleteTask: {
      method: 'GET',
      path: '/mind/task/:id/delete',
      summary: 'Delete a task',
      description: 'Deletes the task permanently and answers a confirmation (a GET, for URL-only tools).',
      pathParams: TaskIdParams,
      responses: { 200: DeletedTask, ...errors(404) },
      metadata: meta('mindKey', 'Tasks', { writes: true }),
    },
  },
  routerOptions(mindKeyErrors),
);
