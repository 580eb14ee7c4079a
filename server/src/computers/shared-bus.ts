import type { InstanceChannel } from '../db/dialect.js';
import { type CommandBus, InProcessCommandBus, type PollHandoff, type PollWaiter, type Waiter } from './bus.js';

const COMPUTER_TOPIC = 'mind_service_computer';
const COMMAND_TOPIC = 'mind_service_command';

/**
 * The command bus for several instances on one database: waits are held in this process,
 * notifications also go through the database's instance channel (LISTEN/NOTIFY on PostgreSQL) so a
 * command queued on instance A wakes the poll held by instance B.
 */
export class SharedCommandBus implements CommandBus {
  private readonly local = new InProcessCommandBus();
  readonly computerChannel = COMPUTER_TOPIC;

  constructor(private readonly channel: InstanceChannel) {
    channel.subscribe(COMPUTER_TOPIC, (computerId) => this.local.notifyComputer(computerId));
    channel.subscribe(COMMAND_TOPIC, (commandId) => this.local.notifyCommand(commandId));
  }

  start(): Promise<void> {
    return this.channel.start();
  }

  // Local waiters are woken at once; other instances hear it through the database.
  notifyComputer(computerId: string) {
    this.local.notifyComputer(computerId);
    this.channel.publish(COMPUTER_TOPIC, computerId);
  }

  notifyComputerHere(computerId: string) {
    this.local.notifyComputer(computerId);
  }

  notifyCommand(commandId: string) {
    this.local.notifyCommand(commandId);
    this.channel.publish(COMMAND_TOPIC, commandId);
  }

  waitForComputer(computerId: string, ms: number): PollWaiter {
    return this.local.waitForComputer(computerId, ms);
  }

  waitForCommand(commandId: string, ms: number): Waiter {
    return this.local.waitForCommand(commandId, ms);
  }

  takePoll(computerId: string): PollHandoff | undefined {
    return this.local.takePoll(computerId);
  }

  isPolling(computerId: string) {
    return this.local.isPolling(computerId);
  }

  close() {
    this.local.close();
  }

  /** Ends the waits and the channel's connections. */
  async stop() {
    this.local.close();
    await this.channel.stop();
  }
}
