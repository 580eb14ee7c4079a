import type { EventName } from '@mindservice/contract';
import { type Conn, type DialectName, dialectOf, runSql, type Trx } from '../db/database.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/secrets.js';

export interface RecordedEvent {
  id: string;
  mindId: string;
  type: EventName;
  data: Record<string, unknown>;
  createdAt: string;
}

/** Runs inside the transaction of the change with its events, e.g. to write webhook deliveries; `rows` are its EventRead's answer. */
export type EventHook = (trx: Trx, events: RecordedEvent[], rows: unknown[]) => Promise<void>;

/**
 * A read a hook needs for the events of a change (which webhooks listen): on PostgreSQL it runs in
 * the same statement as the events' insert, one round trip less for every write; elsewhere on its
 * own, once for all the change's events. It depends on the mind only.
 */
export interface EventRead {
  /** One SELECT with `?` placeholders. */
  sql: string;
  bindings(mindId: string): unknown[];
}
/** Runs after the transaction committed, e.g. to wake the delivery worker. */
export type CommitListener = (event: RecordedEvent) => void;

// Every write runs these two: prepared statements (runSql), not knex's query builder.
const INSERT_EVENT = 'INSERT INTO events (id, mind_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)';
/** The events of one change in one insert: one row each. */
const insertEvents = (count: number) => (count === 1 ? INSERT_EVENT : `${INSERT_EVENT}${', (?, ?, ?, ?, ?)'.repeat(count - 1)}`);
/**
 * On PostgreSQL a plain UPDATE of last_activity would make a mind's concurrent writers commit in
 * single file (docs/performance.md), so a write skips the touch when another transaction holds the
 * row: that one moves it. last_activity is then the time of one of the writes in flight.
 * FOR NO KEY UPDATE: the foreign key checks of the mind's inserts do not wait for it.
 */
/** PostgreSQL's touch of the mind `mindId` (a placeholder or a subquery), skipping a row another writer holds; binds the time first. */
export const postgresTouchMind = (mindId: string) =>
  `UPDATE minds SET last_activity = ? WHERE id = (SELECT id FROM minds WHERE id = ${mindId} FOR NO KEY UPDATE SKIP LOCKED)`;
const TOUCH_MIND: Record<DialectName, string> = {
  sqlite: 'UPDATE minds SET last_activity = ? WHERE id = ?',
  postgres: postgresTouchMind('?'),
};
/**
 * The change itself as data-modifying WITH parts ahead of the event's, on PostgreSQL: the change,
 * its event, the touch and a hook's read in one statement (one round trip). Its parts must not read
 * each other's rows (they see one snapshot); foreign keys are checked at the end of the statement.
 */
export interface ChangeParts {
  /** `name AS (INSERT ...)` each, with `?` placeholders. */
  parts: string[];
  bindings: unknown[];
}

/** The touch and the events' insert as WITH parts after the change's, with a hook's read (or nothing) as the answer. */
function eventStatement(change: ChangeParts | undefined, read: string | undefined, count: number): string {
  const parts = [...(change?.parts ?? []), `touched AS (${TOUCH_MIND.postgres})`];
  if (read === undefined) return `WITH ${parts.join(', ')} ${insertEvents(count)}`;
  return `WITH ${[...parts, `recorded AS (${insertEvents(count)})`].join(', ')} ${read}`;
}

/** An event of a change, before it is recorded. */
export interface NewEvent {
  type: EventName;
  data: Record<string, unknown>;
}

interface Hook {
  run: EventHook;
  read?: EventRead;
}

/**
 * The one event path: a change records its event in the same transaction as the change,
 * so an event exists exactly when its change does, and webhook deliveries are written with it.
 */
export class EventRecorder {
  private readonly hooks: Hook[] = [];
  private readonly listeners: CommitListener[] = [];

  constructor(private readonly clock: Clock) {}

  /** `read`: what the hook reads for each event (given to it as `rows`; [] without one). */
  addHook(hook: EventHook, read?: EventRead) {
    this.hooks.push({ run: hook, read });
  }

  onCommitted(listener: CommitListener) {
    this.listeners.push(listener);
  }

  /**
   * Records the event of a change made in `trx`. On PostgreSQL `change` (the change itself, when it
   * can be written as WITH parts) goes in the same statement as the event; elsewhere the caller
   * has made the change already and passes none.
   */
  async record(trx: Trx, mindId: string, type: EventName, data: Record<string, unknown>, change?: ChangeParts): Promise<RecordedEvent> {
    const [event] = await this.recordAll(trx, mindId, [{ type, data }], change);
    return event as RecordedEvent;
  }

  /**
   * Records the events of one change of the mind, in order, in the statements of one: one insert,
   * one touch and one read per hook for all of them (a write that also changes another memory
   * costs no more round trips for its second event).
   */
  async recordAll(trx: Trx, mindId: string, changes: NewEvent[], change?: ChangeParts): Promise<RecordedEvent[]> {
    const createdAt = this.clock.now().toISOString();
    const events = changes.map(({ type, data }): RecordedEvent => ({ id: newId(), mindId, type, data, createdAt }));
    const values = events.flatMap((e) => [e.id, mindId, e.type, JSON.stringify(e.data), createdAt]);
    // On PostgreSQL the change, the touch, the events' insert and the first hook's read are one statement.
    let readWithInsert: { hook: Hook; rows: unknown[] } | undefined;
    if (!dialectOf(trx).inProcess) {
      const hook = this.hooks.find((h) => h.read);
      const bindings = [...(change?.bindings ?? []), createdAt, mindId, ...values, ...(hook?.read?.bindings(mindId) ?? [])];
      const rows = await runSql(trx, eventStatement(change, hook?.read?.sql, events.length), bindings);
      if (hook) readWithInsert = { hook, rows };
    } else {
      if (change) throw new Error('record: a change as WITH parts is for a database in another process');
      await runSql(trx, insertEvents(events.length), values);
      await this.touch(trx, mindId);
    }
    for (const hook of this.hooks) {
      const rows =
        readWithInsert?.hook === hook ? readWithInsert.rows : hook.read ? await runSql(trx, hook.read.sql, hook.read.bindings(mindId)) : [];
      await hook.run(trx, events, rows);
    }
    trx.executionPromise.then(
      () => {
        for (const event of events) for (const listener of this.listeners) listener(event);
      },
      () => undefined, // rolled back: the events never happened
    );
    return events;
  }

  /** Moves the mind's last_activity for writes that have no event of their own. */
  async touch(conn: Conn, mindId: string) {
    await runSql(conn, TOUCH_MIND[dialectOf(conn).name], [this.clock.now().toISOString(), mindId]);
  }
}
