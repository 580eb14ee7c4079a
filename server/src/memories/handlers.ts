import { contract } from '@mindservice/contract';
import type { RouterImpl } from '../http/router.js';
import type { AppContext } from '../context.js';
import { notImplemented } from '../http/not-implemented.js';

export function memoriesHandlers(_ctx: AppContext): RouterImpl<typeof contract.memories> {
  return notImplemented(contract.memories);
}
