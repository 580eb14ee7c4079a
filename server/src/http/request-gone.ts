import type { ServerResponse } from 'node:http';

/**
 * Aborts when the client goes away before its answer was sent, so work queued only for that answer
 * (a question for the local embedder) can be dropped unstarted instead of computed for no one.
 */
export function requestGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
