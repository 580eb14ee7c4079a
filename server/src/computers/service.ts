import { type Command, type CommandList, type CommandStatus, type Computer, ERROR_MESSAGES, type InstallCode } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { decodeCursorText, encodeCursorText, pageWithinBytes } from '../http/cursor.js';
import { newId } from '../lib/secrets.js';
import { findMind } from '../minds/store.js';
import { type CommandBus, type Waiter, waitUnlessAborted } from './bus.js';
import type { OneStatementDispatch } from './dispatch.js';
import { recordCommandFinished } from './events.js';
import { createInstallCode, type UserSideCaller } from './install-codes.js';
import { checkOnScreen, type NewCommand } from './payloads.js';
import { COMMAND_LIST_DEFAULT, ONLINE_WINDOW_MS } from './rules.js';
import { countQueuedCommands, findCommand, findScreenshot, insertCommand, listCommands, transitionCommand } from './commands-store.js';
import { computerListPage } from './computer-list.js';
import { type QueuedOn, queueInOneStatement } from './queue-in-one-statement.js';
import { type ComputerScope, type StoredComputer, deleteComputer, disableComputer, findComputer } from './store.js';

export type { UserSideCaller };

const scopeOf = (caller: UserSideCaller): ComputerScope =>
  caller.kind === 'mind' ? { userId: caller.userId, mindId: caller.mindId } : { userId: caller.userId };

const FINAL: CommandStatus[] = ['done', 'failed', 'expired', 'cancelled'];
const ELAPSED: Waiter = { done: Promise.resolve('timeout'), cancel: () => undefined };

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

/** `next_cursor` of the command list: the position (`seq`) of the last command shown. */
const encodeCursor = (seq: number) => encodeCursorText(`c${seq}`);
function decodeCursor(cursor: string): number {
  const match = /^c(\d{1,15})$/.exec(decodeCursorText(cursor, 'GET /computers/:id/commands'));
  if (!match) throw ApiError.invalidField('query.cursor', 'is not a next_cursor returned by GET /computers/:id/commands');
  return Number(match[1]);
}

export class ComputersService {
  constructor(
    private readonly ctx: AppContext,
    private readonly bus: CommandBus,
    /** Queueing in one statement where the database has it (PostgreSQL); else the steps one by one. */
    private readonly dispatch: OneStatementDispatch | undefined,
    /** Told when a computer gets a command (the sweeper then checks how many it keeps). */
    private readonly onQueued: (computerId: string) => void = () => undefined,
  ) {}

  createInstallCode(caller: UserSideCaller, body: { computer_name?: string; mind_id?: string }): Promise<InstallCode> {
    return createInstallCode(this.ctx, caller, body);
  }

  list(caller: UserSideCaller, query: { limit?: number; cursor?: string } = {}) {
    return computerListPage(this.ctx, scopeOf(caller), (c) => this.present(c), query);
  }

  async get(caller: UserSideCaller, id: string): Promise<Computer> {
    return this.present(await this.visible(caller, id));
  }

  async queue(
    caller: UserSideCaller,
    computerId: string,
    input: NewCommand,
    location: 'body.payload' | 'query' = 'body.payload',
  ): Promise<{ command_id: string; status: 'queued' }> {
    // Only a zoom's region is checked against the screen here (one more read, for zooms alone); the
    // agent refuses any other point off its screen.
    if (input.type === 'zoom') checkOnScreen(input, (await this.visible(caller, computerId)).screen, location);
    const commandId = newId();
    await this.queueCommand(caller, computerId, commandId, input);
    return { command_id: commandId, status: 'queued' };
  }

  /** A page of commands, newest first; screenshots as `{bytes, url}`, never their bytes. */
  async listCommands(
    caller: UserSideCaller,
    computerId: string,
    { limit = COMMAND_LIST_DEFAULT, cursor }: { limit?: number; cursor?: string } = {},
  ): Promise<CommandList> {
    const before = cursor === undefined ? undefined : decodeCursor(cursor);
    const computer = await this.visible(caller, computerId);
    const read = await listCommands(this.ctx.db, computer.id, limit, before);
    // A result may hold MIND_MAX_RESULT_BYTES: the page ends early at its byte bound.
    const page = pageWithinBytes(read.commands, read.more, this.ctx.config.pageMaxBytes);
    const lastSeq = read.seqs[page.items.length - 1];
    return { commands: page.items, next_cursor: page.more && lastSeq !== undefined ? encodeCursor(lastSeq) : null };
  }

  /** One command with its whole result: a screenshot's PNG as `result.screenshot_b64` too. */
  async getCommand(caller: UserSideCaller, computerId: string, commandId: string): Promise<Command> {
    const computer = await this.visible(caller, computerId);
    const command = await findCommand(this.ctx.db, computer.id, commandId, true);
    if (!command) throw ApiError.notFound('Command');
    return command;
  }

  /** The PNG a command carried; 404 when it has none. */
  async commandScreenshot(caller: UserSideCaller, computerId: string, commandId: string): Promise<Buffer> {
    const computer = await this.visible(caller, computerId);
    const png = await findScreenshot(this.ctx.db, computer.id, commandId);
    if (png) return png;
    const command = await findCommand(this.ctx.db, computer.id, commandId);
    if (!command) throw ApiError.notFound('Command');
    throw ApiError.of(404, 'screenshot_not_found', ERROR_MESSAGES.screenshotNotFound(command.type, command.status));
  }

  /** Only a command still `queued` can be cancelled: one the agent has may already have run. */
  async cancel(caller: UserSideCaller, computerId: string, commandId: string): Promise<Command> {
    const computer = await this.visible(caller, computerId);
    const cancelled = await this.ctx.db.transaction(async (trx) => {
      const command = await findCommand(trx, computer.id, commandId);
      if (!command) throw ApiError.notFound('Command');
      const now = this.ctx.clock.now().toISOString();
      const changed = await transitionCommand(
        trx,
        { id: commandId, computerId: computer.id, from: ['queued'] },
        { status: 'cancelled', completed_at: now },
      );
      if (!changed) throw ApiError.conflict('command_not_queued', ERROR_MESSAGES.commandNotQueued(command.status));
      const result: Command = { ...command, status: 'cancelled', completed_at: now };
      await recordCommandFinished(this.ctx, trx, computer.mind_id, result);
      return result;
    });
    this.bus.notifyCommand(commandId);
    return cancelled;
  }

  /**
   * Queues a screenshot and waits (config.screenshotWaitMs) for the agent's result, woken by the
   * result itself. On timeout the command becomes `expired` (the agent's late result is refused).
   */
  async screenshot(
    caller: UserSideCaller,
    computerId: string,
    size: { max_width?: number; max_height?: number } = {},
    signal?: AbortSignal,
  ): Promise<Buffer> {
    const commandId = newId();
    const waitMs = this.ctx.config.screenshotWaitMs;
    const deadline = Date.now() + waitMs;
    // Subscribed before the command exists, so even an instant result wakes this request.
    let waiter = this.bus.waitForCommand(commandId, waitMs);
    let computer: QueuedOn;
    try {
      computer = await this.queueCommand(caller, computerId, commandId, { type: 'screenshot', payload: { ...size } });
    } catch (err) {
      waiter.cancel();
      throw err;
    }
    for (;;) {
      const reason = await waitUnlessAborted(waiter, signal);
      if (reason === 'aborted') throw ApiError.of(499, 'request_aborted', 'The client closed the request'); // nobody reads this
      if (reason === 'closed') throw ApiError.of(503, 'shutting_down', ERROR_MESSAGES.shuttingDown);
      const remaining = deadline - Date.now();
      // Subscribe again before reading, so a result landing in between still wakes the next wait.
      waiter = remaining > 0 ? this.bus.waitForCommand(commandId, remaining) : ELAPSED;
      const command = await findCommand(this.ctx.db, computer.id, commandId);
      if (!command || FINAL.includes(command.status)) {
        waiter.cancel();
        return this.screenshotOf(computer, command, waitMs);
      }
      // When expiring fails the command just finished: the elapsed waiter lets the loop read it again.
      if (remaining <= 0 && (await this.expireScreenshot(computer, command))) throw this.screenshotTimeout(waitMs);
    }
  }

  /** The PNG of a finished screenshot command, or the error its outcome means. */
  private async screenshotOf(computer: QueuedOn, command: Command | undefined, waitMs: number): Promise<Buffer> {
    if (!command) throw ApiError.notFound('Computer'); // deleted while waiting
    switch (command.status) {
      case 'done':
        return (await findScreenshot(this.ctx.db, computer.id, command.command_id)) ?? Buffer.alloc(0);
      case 'failed':
        throw ApiError.of(502, 'agent_failed', ERROR_MESSAGES.agentFailed(command.error ?? 'no reason given'));
      case 'cancelled':
        throw ApiError.conflict('command_cancelled', ERROR_MESSAGES.screenshotCancelled);
      default:
        throw this.screenshotTimeout(waitMs);
    }
  }

  /** Revokes the token at once (the next agent call is 401) and keeps the record. */
  async disable(caller: UserSideCaller, id: string): Promise<Computer> {
    const computer = await this.visible(caller, id);
    await disableComputer(this.ctx.db, computer.id, this.ctx.clock.now().toISOString());
    this.bus.notifyComputer(computer.id); // ends a waiting poll now
    return this.present({ ...computer, status: 'disabled' });
  }

  async delete(caller: UserSideCaller, id: string): Promise<void> {
    const computer = await this.visible(caller, id);
    await deleteComputer(this.ctx.db, computer.id);
    this.bus.notifyComputer(computer.id);
  }

  private async visible(caller: UserSideCaller, id: string): Promise<StoredComputer> {
    const computer = await findComputer(this.ctx.db, scopeOf(caller), id);
    if (!computer) throw ApiError.notFound('Computer');
    return computer;
  }

  /** A disabled mind takes no commands from anyone: its Mind Key is refused already, its user's JWT here. */
  private async enabledMindOf(caller: UserSideCaller, computer: StoredComputer): Promise<StoredComputer> {
    if (caller.kind === 'user' && computer.mind_id && (await findMind(this.ctx.db, computer.mind_id))?.disabled) {
      throw ApiError.forbidden('mind_disabled', ERROR_MESSAGES.mindDisabled);
    }
    return computer;
  }

  private present({ userId: _userId, ...computer }: StoredComputer): Computer {
    const lastSeen = computer.last_seen_at ? Date.parse(computer.last_seen_at) : undefined;
    const recent = lastSeen !== undefined && this.ctx.clock.now().getTime() - lastSeen <= ONLINE_WINDOW_MS;
    return { ...computer, online: computer.status === 'active' && (recent || this.bus.isPolling(computer.id)) };
  }

  /** Queues the command on the computer, if the caller sees it, it is active and its queue has room; wakes its poll. */
  private async queueCommand(caller: UserSideCaller, computerId: string, commandId: string, input: NewCommand): Promise<QueuedOn> {
    const command: Command = {
      command_id: commandId,
      computer_id: computerId,
      type: input.type,
      payload: input.payload,
      status: 'queued',
      result: null,
      error: null,
      attempts: 0,
      created_at: this.ctx.clock.now().toISOString(),
      sent_at: null,
      completed_at: null,
    };
    const channel = this.bus.computerChannel;
    const queuedOn =
      this.dispatch && channel
        ? await queueInOneStatement(this.ctx, this.bus, this.dispatch, { scope: scopeOf(caller), command, channel })
        : await this.queueStepByStep(caller, command);
    this.onQueued(computerId);
    return queuedOn;
  }

  /** SQLite (in the process, no round trips): the steps one by one, the writes in one transaction. */
  private async queueStepByStep(caller: UserSideCaller, command: Command): Promise<QueuedOn> {
    const computer = await this.enabledMindOf(caller, await this.visible(caller, command.computer_id));
    if (computer.status !== 'active') throw ApiError.conflict('computer_disabled', ERROR_MESSAGES.computerDisabled);
    await this.ctx.db.transaction(async (trx) => {
      const cap = this.ctx.config.maxQueuedCommandsPerComputer;
      if ((await countQueuedCommands(trx, computer.id)) >= cap) {
        throw ApiError.conflict('command_queue_full', ERROR_MESSAGES.commandQueueFull(cap));
      }
      await insertCommand(trx, command);
      if (computer.mind_id) await this.ctx.events.touch(trx, computer.mind_id);
    });
    this.bus.notifyComputer(computer.id);
    return computer;
  }

  /** False when the command finished in the meantime. */
  private async expireScreenshot(computer: QueuedOn, command: Command): Promise<boolean> {
    const now = this.ctx.clock.now().toISOString();
    const error = `no screenshot within ${seconds(this.ctx.config.screenshotWaitMs)}`;
    const expired = await this.ctx.db.transaction(async (trx) => {
      const changed = await transitionCommand(
        trx,
        { id: command.command_id, computerId: computer.id, from: ['queued', 'sent'] },
        { status: 'expired', error, completed_at: now },
      );
      if (changed)
        await recordCommandFinished(this.ctx, trx, computer.mind_id, { ...command, status: 'expired', error, completed_at: now });
      return changed;
    });
    if (expired) this.bus.notifyCommand(command.command_id);
    return expired;
  }

  private screenshotTimeout(waitMs: number) {
    return ApiError.of(504, 'screenshot_timeout', ERROR_MESSAGES.screenshotTimeout(seconds(waitMs)));
  }
}
