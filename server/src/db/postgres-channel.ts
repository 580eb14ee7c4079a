import type pg from 'pg';
import type { Logger } from 'pino';
import type { InstanceChannel } from './dialect.js';

/**
 * The instances sharing a PostgreSQL database tell each other through LISTEN/NOTIFY: one extra
 * connection per instance listens, another notifies; nothing polls. Both reconnect when they drop.
 */
export class PostgresChannel implements InstanceChannel {
  private readonly handlers = new Map<string, (payload: string) => void>();
  private listener?: pg.Client;
  private notifier?: pg.Client;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /** Topics are our own constants, used as channel names as they are. */
  subscribe(topic: string, onMessage: (payload: string) => void): void {
    this.handlers.set(topic, onMessage);
  }

  /** Connects the listening and notifying connections. */
  async start(): Promise<void> {
    // Loaded here, not at import: a service on SQLite never needs the driver (some 3 MB of heap).
    const { default: pg } = await import('pg');
    const listener = new pg.Client({ connectionString: this.connectionString });
    listener.on('notification', (message) => {
      if (message.payload) this.handlers.get(message.channel)?.(message.payload);
    });
    const notifier = new pg.Client({ connectionString: this.connectionString });
    for (const client of [listener, notifier]) {
      client.on('error', (err) => {
        this.log.warn({ err }, 'instance channel: connection lost; reconnecting');
        this.restart();
      });
    }
    await listener.connect();
    await notifier.connect();
    for (const topic of this.handlers.keys()) await listener.query(`LISTEN ${topic}`);
    this.listener = listener;
    this.notifier = notifier;
  }

  private restart() {
    if (this.closed) return;
    const old = [this.listener, this.notifier];
    this.listener = this.notifier = undefined;
    for (const client of old) void client?.end().catch(() => undefined);
    setTimeout(() => {
      if (!this.closed) this.start().catch(() => this.restart());
    }, 500).unref();
  }

  publish(topic: string, payload: string): void {
    this.notifier
      ?.query('SELECT pg_notify($1, $2)', [topic, payload])
      .catch((err) => this.log.warn({ err }, 'instance channel: notify failed'));
  }

  /** Ends the connections. */
  async stop(): Promise<void> {
    this.closed = true;
    await Promise.all([this.listener?.end(), this.notifier?.end()].map((p) => p?.catch(() => undefined)));
  }
}
