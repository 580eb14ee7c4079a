/** Where a loop reports a pass that threw (pino's logger fits). */
export interface LoopLog {
  error(obj: object, msg: string): void;
}

export interface BackgroundLoopOptions {
  /**
   * One pass of the work. Resolves with how long to sleep before the next pass, in ms (0: at once),
   * or null to sleep until wake().
   */
  step: () => Promise<number | null>;
  /** A pass that throws is logged at error level with this message, and the next comes `retryMs` later. */
  log: LoopLog;
  failure: string;
  retryMs: number;
  /** While this answers false, wake() is ignored: a loop that keeps to a back-off of its own. */
  acceptsWake?: () => boolean;
}

/**
 * The wake / timer / stop loop of the background workers (mind purge, webhook deliveries, embeddings,
 * command sweep): one pass at a time; the next after the sleep the pass asked for, or sooner when
 * woken; a pass that throws is logged and the loop goes on; stop() waits for the pass in flight.
 * Its timer is unref'd: a loop never keeps the process alive.
 */
export class BackgroundLoop {
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;
  /** A wake() that came during the pass in flight: the next pass comes at most this long after it. */
  private wokenDelay: number | undefined;
  private stopping = false;

  constructor(private readonly options: BackgroundLoopOptions) {}

  /** stop() was called: a long pass checks this between its pieces of work. */
  get stopped(): boolean {
    return this.stopping;
  }

  /** A wake() came during the pass in flight, so the next pass follows it anyway. */
  get wakePending(): boolean {
    return this.wokenDelay !== undefined;
  }

  /**
   * Asks for a pass within `delayMs` (default: now; a pass due sooner keeps its time). During a pass,
   * the next one comes at most `delayMs` after it ends.
   */
  wake(delayMs = 0): void {
    if (this.stopping || this.options.acceptsWake?.() === false) return;
    if (this.running) {
      this.wokenDelay = Math.min(this.wokenDelay ?? delayMs, delayMs);
      return;
    }
    this.schedule(delayMs);
  }

  /** No pass starts after this; resolves when the pass in flight has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (delayMs <= 0) {
      this.runPass();
      return;
    }
    const at = Date.now() + delayMs;
    if (this.timer && this.timerAt <= at) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.runPass(), delayMs);
    this.timer.unref();
  }

  private runPass(): void {
    if (this.stopping || this.running) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.wokenDelay = undefined;
    this.running = this.pass().then((next) => {
      this.running = undefined;
      if (next !== null && !this.stopping) this.schedule(next);
    });
  }

  /** Runs the step; answers when the next pass is due (null: on wake only). */
  private async pass(): Promise<number | null> {
    let next: number | null;
    try {
      next = await this.options.step();
    } catch (err) {
      if (this.stopping) return null;
      this.options.log.error({ err }, this.options.failure);
      next = this.options.retryMs;
    }
    const woken = this.wokenDelay;
    this.wokenDelay = undefined;
    if (woken !== undefined && this.options.acceptsWake?.() !== false) next = next === null ? woken : Math.min(next, woken);
    return next;
  }
}
