import type { AppContext } from '../core/context.js';
import { BackgroundLoop } from '../lib/background-loop.js';
import { newId } from '../lib/secrets.js';
import type { Deliverer } from './delivery.js';
import { claimDueDeliveries, failExcessPending, nextDueAt } from './deliveries-store.js';

/** Deliveries in flight at once. */
const CONCURRENCY = 16;
/** A finished attempt claims more only when this few are left in flight, so claims come in batches. */
const LOW_WATER = CONCURRENCY / 2;
/**
 * Longest sleep: rows written by another instance, leases of a crashed worker that ran out, or a clock
 * that jumped are noticed this late at most.
 */
const IDLE_POLL_MS = 1000;
/** After a database error, wait this long before claiming again. */
const ERROR_BACKOFF_MS = 1000;
/** Excess pending deliveries failed per statement (the rest on the next pass, events between). */
const TRIM_CHUNK = 500;
/** A webhook is trimmed at most this often (a burst to a healthy receiver would otherwise add a statement per claim pass). */
const TRIM_INTERVAL_MS = 1000;

/**
 * Sends pending deliveries. Wakes at once when an event commits, otherwise sleeps until the next row
 * is due. Rows are claimed with a lease (`locked_until`), so rows of a worker that died are sent again
 * once the lease runs out, and several instances can share one database.
 */
export class DeliveryWorker {
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly loop: BackgroundLoop;
  private readonly leaseMs: number;
  /** Webhooks with a settled attempt since the last pass: their pending deliveries are kept under the cap. */
  private readonly toTrim = new Set<string>();
  /** When each webhook was last trimmed, and whether a full chunk left more to do. */
  private readonly trimmed = new Map<string, { at: number; more: boolean }>();

  constructor(
    private readonly ctx: AppContext,
    private readonly deliverer: Deliverer,
  ) {
    // A lease outlives the longest attempt (timeout) with room to record the result.
    this.leaseMs = 2 * ctx.config.webhookTimeoutMs + 1000;
    this.loop = new BackgroundLoop({
      step: () => this.pump(),
      log: ctx.log,
      failure: 'webhook worker: cannot claim deliveries',
      retryMs: ERROR_BACKOFF_MS,
    });
  }

  /** Look for due rows now. */
  wake(): void {
    this.loop.wake();
  }

  /**
   * Claims what is due, up to CONCURRENCY in flight; answers how long to sleep: until the next row is
   * due, or (all slots busy) until an attempt settles and wakes the loop.
   */
  private async pump(): Promise<number | null> {
    await this.trimPending();
    while (!this.loop.stopped && this.inFlight.size < CONCURRENCY) {
      const now = this.ctx.clock.now();
      const token = newId();
      const limit = CONCURRENCY - this.inFlight.size;
      const claimed = await claimDueDeliveries(this.ctx.db, this.ctx.dialect, {
        now: now.toISOString(),
        leaseUntil: new Date(now.getTime() + this.leaseMs).toISOString(),
        token,
        limit,
      });
      for (const delivery of claimed) this.launch(delivery, token);
      if (claimed.length < limit) break; // nothing more is due now
    }
    if (this.loop.wakePending) return 0; // woken meanwhile: the next pass follows at once, no need to ask when
    if (this.loop.stopped || this.inFlight.size >= CONCURRENCY) return null;
    return this.untilDue();
  }

  /**
   * MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK: enforced here rather than where events queue deliveries,
   * so the write path (every change's transaction) pays nothing. A webhook's pending rows grow only
   * while its receiver fails or lags, and then its attempts settle all along (a new delivery is due at
   * once): each settle brings its webhook here, and the oldest pending beyond the cap fail with an
   * attempt saying why. Between two passes the queue may exceed the cap by what arrived meanwhile.
   */
  private async trimPending() {
    const keep = this.ctx.config.maxPendingDeliveriesPerWebhook;
    const started = performance.now();
    for (const [webhookId, last] of this.trimmed) if (started - last.at >= TRIM_INTERVAL_MS) this.trimmed.delete(webhookId);
    for (const webhookId of [...this.toTrim]) {
      if (this.loop.stopped) return;
      const last = this.trimmed.get(webhookId);
      if (last && !last.more) continue; // trimmed less than TRIM_INTERVAL_MS ago: a later pass does it
      this.toTrim.delete(webhookId);
      const now = this.ctx.clock.now().toISOString();
      const failed = await failExcessPending(this.ctx.db, webhookId, keep, now, TRIM_CHUNK);
      this.trimmed.set(webhookId, { at: performance.now(), more: failed === TRIM_CHUNK });
      if (failed === TRIM_CHUNK) {
        this.toTrim.add(webhookId); // more beyond: the next pass goes on
        this.loop.wake();
      }
      if (failed > 0)
        this.ctx.log.warn({ webhook_id: webhookId, failed, max: keep }, 'webhook: too many pending deliveries, the oldest dropped');
    }
  }

  private launch(delivery: Parameters<Deliverer['attempt']>[0], token: string) {
    const abort = new AbortController();
    const done = this.deliverer
      .attempt(delivery, token, abort.signal)
      .catch((err) => this.ctx.log.error({ err, delivery_id: delivery.id }, 'webhook worker: attempt failed to record'))
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.toTrim.add(delivery.webhook_id);
        if (this.inFlight.size <= LOW_WATER) this.wake();
      });
    this.inFlight.set(delivery.id, { abort, done });
  }

  /** How long until the next pending row is due, at most IDLE_POLL_MS. */
  private async untilDue(): Promise<number> {
    const now = this.ctx.clock.now();
    const due = await nextDueAt(this.ctx.db, now.toISOString());
    return due === null ? IDLE_POLL_MS : Math.min(IDLE_POLL_MS, Math.max(5, Date.parse(due) - now.getTime()));
  }

  /** Stops claiming, lets attempts in flight finish (up to MIND_SHUTDOWN_TIMEOUT), aborts the rest and gives their rows back. */
  async stop(): Promise<void> {
    await this.loop.stop();
    const all = Promise.allSettled([...this.inFlight.values()].map((f) => f.done));
    let grace: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      all.then(() => true),
      new Promise<boolean>((resolve) => (grace = setTimeout(() => resolve(false), this.ctx.config.shutdownTimeoutMs))),
    ]);
    clearTimeout(grace);
    if (!finished) {
      for (const f of this.inFlight.values()) f.abort.abort();
      await all;
    }
  }
}
