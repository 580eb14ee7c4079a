import type { AppContext } from '../core/context.js';
import { newId } from '../lib/secrets.js';
import type { SecretBox } from './secret-box.js';
import type { SendResult, WebhookSender } from './sender.js';
import { type DeliveryPayload, signDelivery } from './signing.js';
import { type AttemptRecord, type ClaimedDelivery, releaseClaim, settleAttempts } from './deliveries-store.js';
import { recordWebhookOutcome } from './store.js';

/** What an answer means for the delivery (docs/webhooks.md). */
export type Verdict = 'succeeded' | 'retry' | 'failed' | 'gone';

export function judge(result: SendResult): Verdict {
  const { status } = result;
  if (status === null) return result.refused ? 'failed' : 'retry'; // network error or timeout
  if (status >= 200 && status < 300) return 'succeeded';
  if (status === 410) return 'gone';
  if (status === 408 || status === 429 || status >= 500) return 'retry';
  return 'failed'; // other 4xx, and 3xx (redirects are not followed)
}

/**
 * Delay before the retry that follows failed attempt number `attempt` (1-based), or null when the
 * schedule is used up. Up to 20% jitter spreads retries of many deliveries; a receiver's Retry-After
 * is honoured up to the longest step of the schedule.
 */
export function retryDelay(schedule: number[], attempt: number, retryAfterMs: number | null, random = Math.random): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 + 0.2 * random()));
  if (retryAfterMs === null) return jittered;
  return Math.max(jittered, Math.min(retryAfterMs, Math.max(...schedule)));
}

/**
 * Writes attempt records in groups: while one transaction is being written, the records of attempts
 * finishing meanwhile wait and go together in the next one (group commit). Idle, a record is written
 * at once; under load this saves a transaction per delivery.
 */
class AttemptWriter {
  private queue: Array<{ record: AttemptRecord; done: () => void }> = [];
  private flushing = false;

  constructor(private readonly ctx: AppContext) {}

  write(record: AttemptRecord): Promise<void> {
    return new Promise<void>((done) => {
      this.queue.push({ record, done });
      // Wait for the rest of this turn of the event loop: answers that arrived together are written together.
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush() {
    while (this.queue.length) {
      const batch = this.queue.splice(0);
      try {
        await this.ctx.db.transaction((trx) =>
          settleAttempts(
            trx,
            batch.map((b) => b.record),
          ),
        );
      } catch (err) {
        // Not recorded: the claims run out and the rows are sent again (at least once).
        this.ctx.log.error({ err, deliveries: batch.length }, 'webhook worker: cannot record attempts');
      }
      for (const b of batch) b.done();
    }
    this.flushing = false;
  }
}

/** Sends deliveries and records what happened. */
export class Deliverer {
  private readonly writer: AttemptWriter;

  constructor(
    private readonly ctx: AppContext,
    private readonly sender: WebhookSender,
    private readonly secrets: SecretBox,
  ) {
    this.writer = new AttemptWriter(ctx);
  }

  /**
   * One attempt of a claimed delivery: send it, then record the attempt, the delivery's next state and
   * the webhook's last_* fields. Records of attempts finishing together share one transaction.
   */
  async attempt(delivery: ClaimedDelivery, token: string, signal: AbortSignal): Promise<void> {
    const startedAt = this.ctx.clock.now();
    const attempt = delivery.attempt_count + 1;

    let result: SendResult;
    if (!delivery.enabled) {
      result = notSent('not sent: the webhook is disabled');
    } else {
      const secret = this.openSecret(delivery.secret_encrypted);
      if (secret === null) {
        result = notSent(UNDECRYPTABLE);
      } else {
        const payload: DeliveryPayload = {
          id: delivery.event_id,
          event: delivery.event,
          timestamp: delivery.event_created_at,
          mind_id: delivery.mind_id,
          data: JSON.parse(delivery.event_data) as Record<string, unknown>,
        };
        result = await this.sender.send(delivery.url, signDelivery(secret, payload, delivery.id, startedAt), signal);
        if (signal.aborted) {
          // Shutting down: give the row back uncounted; it goes out again after the restart.
          await releaseClaim(this.ctx.db, delivery.id, token);
          return;
        }
      }
    }

    const verdict = judge(result);
    const delay = verdict === 'retry' ? retryDelay(this.ctx.config.webhookRetrySchedule, attempt, result.retryAfterMs) : null;
    await this.writer.write({
      deliveryId: delivery.id,
      token,
      mindId: delivery.mind_id,
      webhookId: delivery.webhook_id,
      // A row not sent because its webhook is disabled says so in its attempt, not in the webhook's last_*.
      updateWebhook: delivery.enabled,
      disableWebhook: verdict === 'gone',
      attempt,
      at: startedAt.toISOString(),
      statusCode: result.status,
      error: result.error,
      durationMs: result.durationMs,
      status: verdict === 'succeeded' ? 'succeeded' : delay === null ? 'failed' : 'pending',
      nextAttemptAt: delay === null ? null : new Date(this.ctx.clock.now().getTime() + delay).toISOString(),
    });
    if (verdict === 'gone') this.ctx.log.info({ webhook_id: delivery.webhook_id }, 'webhook disabled: the receiver answered 410 Gone');
  }

  private openSecret(sealed: string): string | null {
    try {
      return this.secrets.open(sealed);
    } catch {
      return null;
    }
  }

  /** `POST /webhooks/:id/test`: a `memory.created` test event sent at once, outside the queue. */
  async sendTest(webhook: { id: string; mind_id: string; url: string; secret_encrypted: string }): Promise<SendResult> {
    const startedAt = this.ctx.clock.now();
    const payload: DeliveryPayload = {
      id: newId(),
      event: 'memory.created',
      timestamp: startedAt.toISOString(),
      mind_id: webhook.mind_id,
      data: {
        id: newId(),
        category: 'note',
        key: 'webhook-test',
        content: 'This is a test event sent by POST /webhooks/:id/test.',
        test: true,
      },
    };
    const secret = this.openSecret(webhook.secret_encrypted);
    if (secret === null) return notSent(UNDECRYPTABLE);
    const result = await this.sender.send(webhook.url, signDelivery(secret, payload, newId(), startedAt));
    await recordWebhookOutcome(this.ctx.db, webhook.id, {
      at: startedAt.toISOString(),
      status: result.status,
      error: result.error,
      disable: judge(result) === 'gone',
    });
    return result;
  }
}

const UNDECRYPTABLE = 'not sent: the webhook secret cannot be decrypted (was the encryption key changed?)';
const notSent = (error: string): SendResult => ({ status: null, error, durationMs: 0, retryAfterMs: null, refused: true });
