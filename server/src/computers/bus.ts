import type { ServerResponse } from 'node:http';

/** Why a wait ended. */
export type WakeReason = 'woken' | 'timeout' | 'replaced' | 'aborted' | 'closed';

export interface Waiter {
  readonly done: Promise<WakeReason>;
  /** Stops waiting (resolves `aborted`); harmless after the wait ended. */
  cancel(): void;
}

/**
 * Wakes waiting long-polls and screenshot requests. Subscribe first, then look in the database,
 * then await: a notification that arrives in between is not lost. `InProcessCommandBus` serves one
 * process (SQLite); `SharedCommandBus` (shared-bus.ts) carries the same wake-ups across instances
 * through the database's instance channel (LISTEN/NOTIFY on PostgreSQL).
 */
export interface CommandBus {
  /** Something changed for this computer (a command was queued, it was disabled): wake its poll. */
  notifyComputer(computerId: string): void;
  /**
   * The database channel that carries `notifyComputer` to the other instances (undefined in one
   * process): a statement that queues a command notifies it itself, delivered with its commit.
   */
  readonly computerChannel: string | undefined;
  /** Wakes this computer's poll in this instance only: the statement that queued told the others. */
  notifyComputerHere(computerId: string): void;
  /** A command finished: wake whoever waits for its result. */
  notifyCommand(commandId: string): void;
  /** The computer's poll; a newer one for the same computer ends this one with `replaced`. */
  waitForComputer(computerId: string, ms: number): Waiter;
  waitForCommand(commandId: string, ms: number): Waiter;
  /** Whether this computer has a poll waiting here now. */
  isPolling(computerId: string): boolean;
  /** Ends every wait with `closed`. */
  close(): void;
}

interface Entry {
  finish(reason: WakeReason): void;
}

/** One timer per wait (its deadline), nothing per second. */
function makeEntry(ms: number, onFinish: (entry: Entry) => void): { entry: Entry; waiter: Waiter } {
  let resolve!: (reason: WakeReason) => void;
  const done = new Promise<WakeReason>((r) => (resolve = r));
  let finished = false;
  const entry: Entry = {
    finish(reason) {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      onFinish(entry);
      resolve(reason);
    },
  };
  const timer = setTimeout(() => entry.finish('timeout'), ms);
  return { entry, waiter: { done, cancel: () => entry.finish('aborted') } };
}

export class InProcessCommandBus implements CommandBus {
  private readonly polls = new Map<string, Entry>();
  private readonly commandWaiters = new Map<string, Set<Entry>>();
  private closed = false;
  readonly computerChannel = undefined;

  notifyComputer(computerId: string) {
    this.polls.get(computerId)?.finish('woken');
  }

  notifyComputerHere(computerId: string) {
    this.notifyComputer(computerId);
  }

  notifyCommand(commandId: string) {
    for (const entry of [...(this.commandWaiters.get(commandId) ?? [])]) entry.finish('woken');
  }

  waitForComputer(computerId: string, ms: number): Waiter {
    this.polls.get(computerId)?.finish('replaced');
    const { entry, waiter } = makeEntry(ms, (e) => {
      if (this.polls.get(computerId) === e) this.polls.delete(computerId);
    });
    if (this.closed) entry.finish('closed');
    else this.polls.set(computerId, entry);
    return waiter;
  }

  waitForCommand(commandId: string, ms: number): Waiter {
    const { entry, waiter } = makeEntry(ms, (e) => {
      const set = this.commandWaiters.get(commandId);
      set?.delete(e);
      if (set?.size === 0) this.commandWaiters.delete(commandId);
    });
    if (this.closed) entry.finish('closed');
    else {
      const set = this.commandWaiters.get(commandId) ?? new Set();
      set.add(entry);
      this.commandWaiters.set(commandId, set);
    }
    return waiter;
  }

  isPolling(computerId: string) {
    return this.polls.has(computerId);
  }

  close() {
    this.closed = true;
    for (const entry of [...this.polls.values()]) entry.finish('closed');
    for (const set of [...this.commandWaiters.values()]) for (const entry of [...set]) entry.finish('closed');
  }
}

/** Aborts when the client goes away before the answer was written (a long-poll or screenshot wait). */
export function clientGone(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Waits for the waiter, or stops waiting (`aborted`) when the client goes away. */
export async function waitUnlessAborted(waiter: Waiter, signal: AbortSignal | undefined): Promise<WakeReason> {
  if (!signal) return waiter.done;
  if (signal.aborted) waiter.cancel();
  const onAbort = () => waiter.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await waiter.done;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
