import type { ServerResponse } from 'node:http';
import type { PolledCommand } from '@mindservice/contract';

/** Why a wait ended; `taken`: a poll taken to be handed a command directly (`handoff` says which). */
export type WakeReason = 'woken' | 'timeout' | 'replaced' | 'aborted' | 'closed' | 'taken';

export interface Waiter {
  readonly done: Promise<WakeReason>;
  /** Stops waiting (resolves `aborted`); harmless after the wait ended. */
  cancel(): void;
}

/**
 * How a taken poll's handoff ended: its commands; or none, and whether to look in the database before
 * waiting again (only if its computer was notified meanwhile: a request that could not queue, say for
 * a computer its caller cannot see, costs the poll nothing).
 */
export type HandoffOutcome = { commands: PolledCommand[] } | { commands?: undefined; look: boolean };

/** A poll's wait, which may end `taken`. */
export interface PollWaiter extends Waiter {
  /** After `taken`: how the handoff ended (`look: false` too when the poll gave it up, `abandon`). */
  readonly handoff: Promise<HandoffOutcome>;
  /** The poll's client went away while it was taken: a later `deliver` answers false. */
  abandon(): void;
  /**
   * The poll answers without waiting (it found commands itself): ends the wait, refuses a later
   * `deliver`, and gives what a request that took this poll meanwhile had delivered already, and
   * whether a newer poll of the computer replaced this one meanwhile.
   */
  withdraw(): { handed: PolledCommand[]; replaced: boolean };
}

/**
 * A held poll taken out of its wait by the request queueing a command for its computer in this
 * instance, so the statement that queues can hand the command over (`sent`) in the same round trip
 * instead of the poll claiming it in another. Exactly one of `deliver` and `release` follows.
 */
export interface PollHandoff {
  /** Gives the poll its commands; false when its client went away meanwhile (nothing reached it). */
  deliver(commands: PolledCommand[]): boolean;
  /** Nothing was handed over: the poll looks in the database again. */
  release(): void;
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
  waitForComputer(computerId: string, ms: number): PollWaiter;
  waitForCommand(commandId: string, ms: number): Waiter;
  /** Takes this computer's poll waiting here, if any, out of its wait to hand it a command directly. */
  takePoll(computerId: string): PollHandoff | undefined;
  /** Whether this computer has a poll waiting here now. */
  isPolling(computerId: string): boolean;
  /** Ends every wait with `closed`. */
  close(): void;
}

interface Entry {
  finish(reason: WakeReason): void;
  /** Ends the wait with `taken`; undefined when it had ended already. On release, `lookAgain` says whether to look. */
  take(lookAgain: () => boolean): PollHandoff | undefined;
}

/** One timer per wait (its deadline), nothing per second. */
function makeEntry(ms: number, onFinish: (entry: Entry) => void): { entry: Entry; waiter: PollWaiter } {
  let resolve!: (reason: WakeReason) => void;
  const done = new Promise<WakeReason>((r) => (resolve = r));
  let finished = false;
  let endedBy: WakeReason | undefined;
  // A taken poll's handoff: open until delivered, released or abandoned, whichever comes first.
  let handoffOpen = false;
  let settleHandoff!: (outcome: HandoffOutcome) => void;
  const handoff = new Promise<HandoffOutcome>((r) => (settleHandoff = r));
  let delivered: PolledCommand[] = [];
  const closeHandoff = (outcome: HandoffOutcome) => {
    if (!handoffOpen) return false;
    handoffOpen = false;
    delivered = outcome.commands ?? [];
    settleHandoff(outcome);
    return true;
  };
  const entry: Entry = {
    finish(reason) {
      if (finished) return;
      finished = true;
      endedBy = reason;
      clearTimeout(timer);
      onFinish(entry);
      resolve(reason);
    },
    take(lookAgain) {
      if (finished) return undefined;
      handoffOpen = true;
      entry.finish('taken');
      return { deliver: (commands) => closeHandoff({ commands }), release: () => void closeHandoff({ look: lookAgain() }) };
    },
  };
  const timer = setTimeout(() => entry.finish('timeout'), ms);
  const waiter: PollWaiter = {
    done,
    cancel: () => entry.finish('aborted'),
    handoff,
    abandon: () => void closeHandoff({ look: false }),
    withdraw() {
      entry.finish('aborted');
      closeHandoff({ look: false });
      return { handed: delivered, replaced: endedBy === 'replaced' };
    },
  };
  return { entry, waiter };
}

export class InProcessCommandBus implements CommandBus {
  private readonly polls = new Map<string, Entry>();
  /** Polls taken for a handoff, by computer: whether the computer was notified while they were out. */
  private readonly taken = new Map<string, Set<{ notified: boolean }>>();
  private readonly commandWaiters = new Map<string, Set<Entry>>();
  private closed = false;
  readonly computerChannel = undefined;

  notifyComputer(computerId: string) {
    this.polls.get(computerId)?.finish('woken');
    for (const mark of this.taken.get(computerId) ?? []) mark.notified = true;
  }

  notifyComputerHere(computerId: string) {
    this.notifyComputer(computerId);
  }

  notifyCommand(commandId: string) {
    for (const entry of [...(this.commandWaiters.get(commandId) ?? [])]) entry.finish('woken');
  }

  waitForComputer(computerId: string, ms: number): PollWaiter {
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

  takePoll(computerId: string): PollHandoff | undefined {
    const mark = { notified: false };
    const handoff = this.polls.get(computerId)?.take(() => mark.notified);
    if (!handoff) return undefined;
    const marks = this.taken.get(computerId) ?? new Set();
    marks.add(mark);
    this.taken.set(computerId, marks);
    const untrack = () => {
      marks.delete(mark);
      if (marks.size === 0 && this.taken.get(computerId) === marks) this.taken.delete(computerId);
    };
    return {
      deliver(commands) {
        untrack();
        return handoff.deliver(commands);
      },
      release() {
        untrack();
        handoff.release();
      },
    };
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

/** Awaits `outcome`; `onAbort` runs when the client goes away first (or had gone already). */
async function unlessClientGone<T>(outcome: Promise<T>, onAbort: () => void, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return outcome;
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await outcome;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** How a taken poll's handoff ended; `look: false` when the client went away first. */
export const handedOver = (waiter: PollWaiter, signal: AbortSignal | undefined): Promise<HandoffOutcome> =>
  unlessClientGone(waiter.handoff, () => waiter.abandon(), signal);

/** Waits for the waiter, or stops waiting (`aborted`) when the client goes away. */
export const waitUnlessAborted = (waiter: Waiter, signal: AbortSignal | undefined): Promise<WakeReason> =>
  unlessClientGone(waiter.done, () => waiter.cancel(), signal);
