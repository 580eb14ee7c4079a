import { notFound, type RouteErrors } from './shared.js';

/** The tasks routes' own causes of their error statuses. */
export const TASKS_ERRORS: Record<string, RouteErrors> = {
  'tasks.listTasks': { 400: { summary: 'A status that does not exist', query: { status: 'open' } }, codes: ['cursor_invalid'] },
  'tasks.createTask': { 400: { summary: 'No title', body: { priority: 'high' } } },
  'tasks.createTaskFromQuery': { 400: { summary: 'No title', query: { priority: 'high' } } },
  'tasks.getTask': { 404: [notFound('Task')] },
  'tasks.updateTask': { 400: { summary: 'A status that does not exist', body: { status: 'finished' } }, 404: [notFound('Task')] },
  'tasks.completeTask': { 404: [notFound('Task')] },
  'tasks.deleteTask': { 404: [notFound('Task')] },
};
