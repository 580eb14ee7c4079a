import type { Command, PolledCommand } from '@mindservice/contract';
import type { Conn } from '../db/database.js';
import type { ComputerScope } from './store.js';

/** A command to queue, if the computer and its queue allow it. */
export interface QueueAttempt {
  command: Command;
  /** Who asks: a computer outside it is not found. */
  scope: ComputerScope;
  /** Queued commands a computer may hold (MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER). */
  cap: number;
  /** The instance channel that wakes polls: notified by the same statement, when it queues. */
  notifyChannel: string;
  /** This instance holds the computer's poll: hand the command over now (`sent`) if no older one waits. */
  handOver: boolean;
}

/** What the statement found; the command was queued when `queued` (the service says why not). */
export interface QueueFacts {
  mindId: string | null;
  active: boolean;
  mindDisabled: boolean;
  queuedBefore: number;
  queued: boolean;
  /** Queued as `sent`, for the poll this instance holds (asked with `handOver`). */
  handedOver: boolean;
}

/**
 * Queueing and claiming a command in one statement each, where a round trip to the database costs
 * more than the statements (PostgreSQL). SQLite runs in the process: its transactions cost nothing
 * to talk to, so the service runs the steps one by one there.
 */
export interface OneStatementDispatch {
  /** Undefined when the caller sees no such computer. */
  queue(conn: Conn, attempt: QueueAttempt): Promise<QueueFacts | undefined>;
  /** A handed-over command that did not reach its poll is queued again (`queued`), and the instances told. */
  requeue(conn: Conn, commandId: string, notifyChannel: string): Promise<void>;
  /** Touches the computer and hands over its oldest queued commands; undefined when it is disabled or gone. */
  claim(conn: Conn, computerId: string, now: string, limit: number): Promise<PolledCommand[] | undefined>;
}
