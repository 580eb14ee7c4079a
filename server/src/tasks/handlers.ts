import { contract } from '@mindservice/contract';
import type { RouterImpl } from '../http/router.js';
import type { AppContext } from '../context.js';
import { notImplemented } from '../http/not-implemented.js';

export function tasksHandlers(_ctx: AppContext): RouterImpl<typeof contract.tasks> {
  return notImplemented(contract.tasks);
}
