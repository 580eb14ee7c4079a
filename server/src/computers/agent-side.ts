// The agent's side of the computers area: what the screen-remote-agent program calls (register,
// poll, report), as opposed to the user's side in service.ts.
import { type CommandStatus, ERROR_MESSAGES, type ErrorCodeOf, type PolledCommand, type Screen } from '@mindservice/contract';
import type { AppContext } from '../core/context.js';
import { ApiError } from '../http/api-error.js';
import { FailureLimit, waitInWords } from '../http/failure-limit.js';
import { type RateLimiter, clientAddressKey, createRateLimiter } from '../http/rate-limit.js';
import { newId, newToken, sha256Hex } from '../lib/secrets.js';
import { type CommandBus, handedOver, waitUnlessAborted } from './bus.js';
import type { OneStatementDispatch } from './dispatch.js';
import { recordCommandFinished, recordComputerEvent } from './events.js';
import { presentResult, splitResult } from './results.js';
import { POLL_BATCH, POLL_DEFAULT_WAIT_S } from './rules.js';
import { checkComputersCap, checkMindShare, normalizeInstallCode } from './install-codes.js';
import { claimQueuedCommands, findCommand, hasQueuedCommands, requeueSentCommands, transitionCommand } from './commands-store.js';
import { type StoredComputer, findInstallCode, insertComputer, touchActiveComputer, updateScreen, useInstallCode } from './store.js';

export interface RegisterInput {
  code: string;
  computer_name: string;
  platform: string;
  platform_release: string;
  python: string;
  screen?: Screen;
}

export interface ResultInput {
  status: 'done' | 'failed';
  result?: Record<string, unknown>;
  error?: string;
}

/** The agent's identity as the auth middleware established it from the Computer Token. */
export interface AgentCaller {
  computerId: string;
  mindId: string | null;
}

/** A refused install code: the code says which refusal, the message what to do. */
const badCode = (code: ErrorCodeOf<400>, message: string) => ApiError.invalidField('body.code', message, code);
/**
 * Install codes checked at once per instance: one (a short transaction each, hundreds a second), so
 * at most one good registration per instance is counted in advance and a fleet registering from one
 * address at once is never refused for failures it did not make (see FailureLimit).
 */
const REGISTRATION_CONCURRENCY = 1;

/** What the agent program (`screen-remote-agent`) calls, with its Computer Token after registering. */
export class AgentSideService {
  /** Failed registrations per client address (docs/security.md): install codes cannot be guessed at speed. */
  private readonly failedRegistrations: RateLimiter;
  /** Registrations checked at once (each a short transaction). */
  private readonly registrations = new FailureLimit(REGISTRATION_CONCURRENCY);

  constructor(
    private readonly ctx: AppContext,
    private readonly bus: CommandBus,
    /** Claiming in one statement where the database has it (PostgreSQL); else the steps one by one. */
    private readonly dispatch: OneStatementDispatch | undefined,
  ) {
    const { installCodeMaxFailuresPerAddress: limit, installCodeFailureWindowMs: windowMs } = ctx.config;
    this.failedRegistrations = createRateLimiter(ctx, 'install-code-address', limit, windowMs);
  }

  /**
   * Trades a single-use install code for a computer and its token (shown only here). Every refused
   * code (malformed, unknown, used, expired) counts against the client's address (`address`: its IP
   * as the app computes it); past the limit, registrations from there are 429 until the window ends.
   */
  async register(
    input: RegisterInput,
    address: string | undefined,
  ): Promise<{ computer_id: string; computer_name: string; computer_token: string }> {
    const check = {
      limiter: this.failedRegistrations,
      key: clientAddressKey(address),
      code: 'registration_attempts_exceeded' as const,
      message: (s: number) => `Too many failed registrations from this address. Try again in ${waitInWords(s)}.`,
    };
    const refusedCode = (err: unknown) => err instanceof ApiError && err.statusCode === 400;
    return this.registrations.run([check], () => this.registerWithCode(input), refusedCode);
  }

  private async registerWithCode(input: RegisterInput): Promise<{ computer_id: string; computer_name: string; computer_token: string }> {
    const code = normalizeInstallCode(input.code);
    if (!code)
      throw badCode('install_code_unknown', 'unknown install code (it looks like XXXX-XXXX); create one with POST /computers/install-code');
    const codeHash = sha256Hex(code);
    const token = newToken('ct_');
    const now = this.ctx.clock.now().toISOString();
    return this.ctx.db.transaction(async (trx) => {
      const stored = await findInstallCode(trx, codeHash);
      if (!stored) throw badCode('install_code_unknown', 'unknown install code; create one with POST /computers/install-code');
      if (stored.used_at) throw badCode('install_code_used', 'this install code has already been used; each code registers one computer');
      if (stored.expires_at <= now)
        throw badCode('install_code_expired', 'this install code has expired (codes work for 15 minutes); create a new one');
      if (!(await useInstallCode(trx, codeHash, now)))
        throw badCode('install_code_used', 'this install code has already been used; each code registers one computer');
      await checkComputersCap(this.ctx, trx, stored.user_id);
      // Checked again here: the owner may have added computers to the mind since the code was made.
      if (stored.made_by === 'mind_key' && stored.mind_id) await checkMindShare(this.ctx, trx, stored.mind_id);

      const computer: StoredComputer = {
        id: newId(),
        userId: stored.user_id,
        mind_id: stored.mind_id,
        // The name the user gave the code wins over the one the agent reports.
        computer_name: stored.computer_name ?? input.computer_name,
        platform: input.platform,
        platform_release: input.platform_release,
        python: input.python,
        status: 'active',
        created_at: now,
        last_seen_at: now,
        screen: input.screen ?? null,
      };
      await insertComputer(trx, computer, sha256Hex(token));
      const { userId: _userId, ...event } = computer;
      await recordComputerEvent(this.ctx, trx, computer.mind_id, 'computer.registered', { ...event, online: true });
      return { computer_id: computer.id, computer_name: computer.computer_name, computer_token: token };
    });
  }

  /**
   * Long-poll: answers at once with queued commands, else as soon as one is queued, else empty after
   * `wait` seconds. Handing over is a database write (`sent`) made when answering, or (PostgreSQL,
   * a command queued in this instance) made by the statement that queues it, which then hands it to
   * this poll directly (`taken`). A newer poll of the same computer, a disable or the client going
   * away ends the wait with nothing handed over.
   */
  async poll(computer: AgentCaller, waitSeconds = POLL_DEFAULT_WAIT_S, signal?: AbortSignal): Promise<{ commands: PolledCommand[] }> {
    const answer = await this.waitForCommands(computer, waitSeconds, signal);
    // The client went away before its answer: nobody received these, so they wait for the next poll.
    if (signal?.aborted && answer.commands.length > 0) await this.requeue(computer.computerId, answer.commands);
    return answer;
  }

  /** Commands handed over to a poll that can no longer answer go back to the queue, and the polls are woken. */
  private async requeue(computerId: string, commands: PolledCommand[]) {
    const ids = commands.map((c) => c.command_id);
    try {
      await requeueSentCommands(this.ctx.db, computerId, ids);
      this.bus.notifyComputer(computerId);
    } catch (err) {
      // They are stored either way: the sweeper ends them (or queues a screenshot again) after the lease.
      this.ctx.log.warn({ err, command_ids: ids }, 'commands whose poll had gone were not queued again');
    }
  }

  private async waitForCommands(computer: AgentCaller, waitSeconds: number, signal: AbortSignal | undefined) {
    const deadline = Date.now() + waitSeconds * 1000;
    let woken = false;
    /** Whether to look in the database before waiting (not after a handoff that found nothing new). */
    let look = true;
    for (;;) {
      const remaining = deadline - Date.now();
      // Subscribed before looking, so a command queued in between still wakes this poll.
      const waiter = remaining > 0 ? this.bus.waitForComputer(computer.computerId, remaining) : undefined;
      const claimed = signal?.aborted
        ? undefined
        : !look
          ? []
          : await this.claim(computer.computerId, woken).catch((err) => {
              waiter?.withdraw();
              throw err;
            });
      if (!claimed || claimed.length > 0 || !waiter) {
        // A request may have taken this poll while it looked: what it handed over goes out with this
        // answer, and a handoff still under way is refused (its command is queued again).
        const { handed, replaced } = waiter?.withdraw() ?? { handed: [], replaced: false };
        const commands = [...(claimed ?? []), ...handed];
        // A newer poll of the computer came meanwhile (its agent moved on): they are that poll's.
        if (replaced && commands.length > 0) {
          await this.requeue(computer.computerId, commands);
          return { commands: [] };
        }
        return { commands };
      }
      const reason = await waitUnlessAborted(waiter, signal);
      if (reason === 'taken') {
        const outcome = await handedOver(waiter, signal);
        if (outcome.commands) return { commands: outcome.commands };
        if (signal?.aborted) return { commands: [] };
        look = outcome.look;
      } else if (reason !== 'woken') return { commands: [] };
      else look = true;
      woken = true;
    }
  }

  /**
   * Undefined when the computer was disabled or deleted meanwhile: its poll ends empty. A poll
   * arriving usually finds nothing: it only touches and looks, without a transaction (thousands of
   * agents poll). A woken poll expects a command and claims at once. In one statement (PostgreSQL)
   * touching, looking and claiming are one round trip either way.
   */
  private async claim(computerId: string, woken: boolean): Promise<PolledCommand[] | undefined> {
    if (this.dispatch) return this.dispatch.claim(this.ctx.db, computerId, this.ctx.clock.now().toISOString(), POLL_BATCH);
    if (!woken) {
      if (!(await touchActiveComputer(this.ctx.db, computerId, this.ctx.clock.now().toISOString()))) return undefined;
      if (!(await hasQueuedCommands(this.ctx.db, computerId))) return [];
    }
    return this.ctx.db.transaction(async (trx) => {
      const now = this.ctx.clock.now().toISOString();
      if (!(await touchActiveComputer(trx, computerId, now))) return undefined;
      const commands = await claimQueuedCommands(trx, this.ctx.dialect, computerId, now, POLL_BATCH);
      return commands.map(({ command_id, type, payload, created_at }) => ({ command_id, type, payload, created_at }));
    });
  }

  /** The screen the agent sees now (at start and when it changes); commands' coordinates are in its pixels. */
  async reportScreen(computer: AgentCaller, screen: Screen): Promise<{ computer_id: string; screen: Screen }> {
    const now = this.ctx.clock.now().toISOString();
    // The token was checked a moment ago; a disable in between finds no active row.
    if (!(await updateScreen(this.ctx.db, computer.computerId, screen, now))) {
      throw ApiError.of(401, 'computer_token_invalid', ERROR_MESSAGES.unauthorized, {
        details: [{ path: 'headers.authorization', message: 'unknown or revoked Computer Token' }],
      });
    }
    return { computer_id: computer.computerId, screen };
  }

  /** The agent's outcome of a command; only this computer's unfinished commands take one. */
  async postResult(computer: AgentCaller, commandId: string, input: ResultInput): Promise<{ command_id: string; status: CommandStatus }> {
    const now = this.ctx.clock.now().toISOString();
    await this.ctx.db.transaction(async (trx) => {
      const command = await findCommand(trx, computer.computerId, commandId);
      if (!command) throw ApiError.notFound('Command');
      if (command.status !== 'queued' && command.status !== 'sent') {
        throw ApiError.conflict('command_finished', ERROR_MESSAGES.commandFinished(command.status));
      }
      // The PNG is kept apart; the rest of the result is bounded (413 beyond MIND_MAX_RESULT_BYTES).
      const { result, png } = splitResult(command.type, input.status, input.result, this.ctx.config.maxResultBytes);
      const error = input.status === 'failed' ? (input.error ?? 'the agent reported a failure without a reason') : null;
      const changed = await transitionCommand(
        trx,
        { id: commandId, computerId: computer.computerId, from: ['queued', 'sent'] },
        { status: input.status, result, screenshot: png, error, completed_at: now },
      );
      if (!changed) throw ApiError.conflict('command_finished', 'This command finished meanwhile; its result cannot change');
      await touchActiveComputer(trx, computer.computerId, now);
      // The event (and every webhook delivery) carries the screenshot as {bytes, url}, never its bytes.
      const shown = presentResult(computer.computerId, commandId, result, png ? png.length : null);
      await recordCommandFinished(this.ctx, trx, computer.mindId, {
        ...command,
        status: input.status,
        result: shown,
        error,
        completed_at: now,
      });
    });
    this.bus.notifyCommand(commandId);
    return { command_id: commandId, status: input.status };
  }
}
