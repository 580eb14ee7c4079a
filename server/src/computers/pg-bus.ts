import type pg from 'pg';
import type { Logger } from 'pino';
import { type CommandBus, InProcessCommandBus, type Waiter } from './bus.js';

const COMPUTER_CHANNEL = 'mind_service_computer';
const COMMAND_CHANNEL = 'mind_service_command';

/**
 * The command bus for several instances on one PostgreSQL database: waits are held in this process,
 * notifications go through LISTEN/NOTIFY so a command queued on instance A wakes the poll held by
 * instance B. One extra connection per instance listens; nothing polls.
 */
export class PostgresCommandBus implements CommandBus {
  private readonly local = new InProcessCommandBus();
  private listener?: pg.Client;
  private notifier?: pg.Client;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  /** Connects the listening and notifying connections; reconnects when they drop. */
  async start(): Promise<void> {
    // Loaded here, not at import: a service on SQLite never needs the driver (some 3 MB of heap).
    const { default: pg } = await import('pg');
    const listener = new pg.Client({ connectionString: this.connectionString });
    listener.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === COMPUTER_CHANNEL) this.local.notifyComputer(message.payload);
      else if (message.channel === COMMAND_CHANNEL) this.local.notifyCommand(message.payload);
    });
    const notifier = new pg.Client({ connectionString: this.connectionString });
    for (const client of [listener, notifier]) {
      client.on('error', (err) => {
        this.log.warn({ err }, 'command bus connection lost; reconnecting');
        this.restart();
      });
    }
    await listener.connect();
    await notifier.connect();
    await listener.query(`LISTEN ${COMPUTER_CHANNEL}`);
    await listener.query(`LISTEN ${COMMAND_CHANNEL}`);
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

  private publish(channel: string, payload: string) {
    // Local waiters are woken at once; other instances hear it through the database.
    this.notifier?.query('SELECT pg_notify($1, $2)', [channel, payload]).catch((err) => this.log.warn({ err }, 'notify failed'));
  }

  notifyComputer(computerId: string) {
    this.local.notifyComputer(computerId);
    this.publish(COMPUTER_CHANNEL, computerId);
  }

  notifyCommand(commandId: string) {
    this.local.notifyCommand(commandId);
    this.publish(COMMAND_CHANNEL, commandId);
  }

  waitForComputer(computerId: string, ms: number): Waiter {
    return this.local.waitForComputer(computerId, ms);
  }

  waitForCommand(commandId: string, ms: number): Waiter {
    return this.local.waitForCommand(commandId, ms);
  }

  isPolling(computerId: string) {
    return this.local.isPolling(computerId);
  }

  close() {
    this.local.close();
  }

  /** Ends the waits and the connections. */
  async stop() {
    this.closed = true;
    this.local.close();
    await Promise.all([this.listener?.end(), this.notifier?.end()].map((p) => p?.catch(() => undefined)));
  }
}
