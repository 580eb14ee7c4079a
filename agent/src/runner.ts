// The agent's loop: long-poll, run each command, post its result. Survives a server that is down
// (capped exponential backoff), stops for good on 401 (token revoked), and on stop() finishes the
// commands it already took before returning.
import {
  type AgentClient,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  RequestAbortedError,
  UnauthorizedError,
} from '@mindservice/sdk';
import type { Driver, Size } from './drivers/driver.js';
import { type CommandOutcome, type CommandToRun, executeCommand } from './execute.js';

/** What the runner needs from the service (AgentClient, adapted by agentApi below). */
export interface AgentApi {
  /** Waits up to `waitSeconds` for commands; `signal` ends the wait early. */
  poll(waitSeconds: number, signal: AbortSignal): Promise<CommandToRun[]>;
  postResult(commandId: string, outcome: CommandOutcome): Promise<void>;
  /** `PUT /computers/me/screen`: the screen's size, so commands' coordinates can be checked and scaled. */
  reportScreen(screen: Size): Promise<void>;
}

export interface RunnerOptions {
  api: AgentApi;
  driver: Driver;
  log: (line: string) => void;
  /** Seconds each poll waits on the server (default 25). */
  pollWaitSeconds?: number;
  /**
   * Backoff while the server cannot be reached: first delay and cap, in ms (default 1 s .. 5 s). A
   * low cap brings the agent back within a few seconds of the server's return; a poll is one small
   * request, so polling a down server every few seconds costs next to nothing.
   */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** How long to keep trying to deliver one result before giving up (default 60 s, the server's own limit). */
  reportDeadlineMs?: number;
}

/** The token was refused: the computer was disabled or deleted. Running again cannot help. */
export class RevokedError extends Error {
  constructor(detail: string) {
    super(
      `the server refused this computer's token (401: ${detail}). The computer was disabled or deleted; ` +
        'register it again with a new install code: screen-remote-agent register --force --server URL --install-code XXXX-XXXX',
    );
    this.name = 'RevokedError';
  }
}

/** The longest pause between attempts while the server is down, unless `--max-backoff` says otherwise. */
export const DEFAULT_BACKOFF_MAX_MS = 5_000;

export class Runner {
  private stopping = false;
  private readonly stopController = new AbortController();
  private readonly pollWait: number;
  private readonly backoffInitial: number;
  private readonly backoffMax: number;
  private readonly reportDeadline: number;
  /** The screen as last seen (at start, then by screenshots), and as last reported to the server. */
  private seenScreen: Size | undefined;
  private reportedScreen: Size | undefined;

  constructor(private readonly options: RunnerOptions) {
    this.pollWait = options.pollWaitSeconds ?? 25;
    this.backoffInitial = options.backoffInitialMs ?? 1000;
    this.backoffMax = options.backoffMaxMs ?? DEFAULT_BACKOFF_MAX_MS;
    this.reportDeadline = options.reportDeadlineMs ?? 60_000;
  }

  /** Ends the loop: a waiting poll is cut short; commands already taken are run and reported first. */
  stop(): void {
    this.stopping = true;
    this.stopController.abort();
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  /** Resolves after stop(); rejects with RevokedError on 401. */
  async run(): Promise<void> {
    const { log } = this.options;
    let failures = 0;
    await this.readScreen();
    await this.reportScreen();
    while (!this.stopping) {
      let commands: CommandToRun[];
      try {
        commands = await this.options.api.poll(this.pollWait, this.stopController.signal);
      } catch (error) {
        if (this.stopping && error instanceof RequestAbortedError) break;
        if (error instanceof UnauthorizedError) throw new RevokedError(error.message);
        const delay = this.backoffDelay(failures++);
        log(`cannot poll the server: ${describe(error)}; retrying in ${(delay / 1000).toFixed(1)} s`);
        await this.pause(delay);
        continue;
      }
      if (failures > 0) log('connected to the server again');
      failures = 0;
      // Commands in hand are finished even when a stop arrives meanwhile: the server already marked them sent.
      for (const command of commands) await this.handle(command);
      // Also retries a report that failed while the server was down.
      await this.reportScreen();
    }
    log('stopped');
  }

  private async handle(command: CommandToRun): Promise<void> {
    const { log } = this.options;
    const outcome = await executeCommand(this.options.driver, command);
    const label = `${command.type} ${command.command_id}${describePayload(command)}`;
    const took = `${outcome.result.duration_ms} ms`;
    log(outcome.status === 'done' ? `${label}: done in ${took}` : `${label}: failed in ${took}: ${outcome.error}`);
    const { screen_width, screen_height } = outcome.result;
    if (typeof screen_width === 'number' && typeof screen_height === 'number')
      this.seenScreen = { width: screen_width, height: screen_height };
    await this.report(command, outcome);
  }

  /** The screen's size at start; without a display the agent still runs (commands then fail and say why). */
  private async readScreen(): Promise<void> {
    try {
      this.seenScreen = await this.options.driver.screenSize();
    } catch (error) {
      this.options.log(`cannot read the screen size: ${describe(error)}`);
    }
  }

  /** Reports the screen when it differs from what the server was told; a failure is retried after the next poll. */
  private async reportScreen(): Promise<void> {
    const screen = this.seenScreen;
    if (!screen || (screen.width === this.reportedScreen?.width && screen.height === this.reportedScreen.height)) return;
    try {
      await this.options.api.reportScreen(screen);
      this.reportedScreen = screen;
      this.options.log(`screen ${screen.width}x${screen.height} reported`);
    } catch (error) {
      if (error instanceof UnauthorizedError) throw new RevokedError(error.message);
      this.options.log(`cannot report the screen size: ${describe(error)}; trying again after the next poll`);
    }
  }

  /** Delivers one result, retrying while the server is unreachable, up to the report deadline. */
  private async report(command: CommandToRun, outcome: CommandOutcome): Promise<void> {
    const { log, api } = this.options;
    const deadline = Date.now() + this.reportDeadline;
    for (let attempt = 0; ; attempt++) {
      try {
        await api.postResult(command.command_id, outcome);
        return;
      } catch (error) {
        if (error instanceof UnauthorizedError) throw new RevokedError(error.message);
        if (error instanceof NotFoundError || error instanceof ConflictError) {
          log(`result of ${command.command_id} not accepted (${describe(error)}): the server no longer waits for it`);
          return;
        }
        if (error instanceof PayloadTooLargeError && outcome.status === 'done') {
          outcome = {
            status: 'failed',
            result: { ok: false, duration_ms: outcome.result.duration_ms },
            error: 'the result was too large for the server',
          };
          continue;
        }
        if (error instanceof BadRequestError) {
          log(`result of ${command.command_id} refused: ${describe(error)}`);
          return;
        }
        const delay = this.backoffDelay(attempt);
        if (Date.now() + delay > deadline) {
          log(`giving up reporting ${command.command_id}: ${describe(error)}`);
          return;
        }
        log(`cannot report ${command.command_id}: ${describe(error)}; retrying in ${(delay / 1000).toFixed(1)} s`);
        await sleep(delay); // not cut short by stop(): the result is what a stop waits for
      }
    }
  }

  /** Capped exponential backoff, up to a quarter off at random so restarted agents do not poll in step. */
  private backoffDelay(failures: number): number {
    const base = Math.min(this.backoffInitial * 2 ** failures, this.backoffMax);
    return Math.round(base * (1 - Math.random() * 0.25));
  }

  /** Waits, but returns at once when stop() is called. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const signal = this.stopController.signal;
      if (signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A short, privacy-minded view of a command for the log: never the typed text. */
function describePayload({ type, payload }: CommandToRun): string {
  const p = payload ?? {};
  switch (type) {
    case 'click':
    case 'move':
    case 'mouse_down':
    case 'mouse_up':
      return p.x === undefined ? ' at the pointer' : ` at (${p.x}, ${p.y})`;
    case 'type':
      return typeof p.text === 'string' ? ` (${[...p.text].length} characters)` : '';
    case 'key':
    case 'hold_key':
      return Array.isArray(p.keys) ? ` ${p.keys.join('+')}` : '';
    case 'scroll':
      return ` by (${p.deltaX ?? 0}, ${p.deltaY ?? 0})`;
    case 'drag':
      return Array.isArray(p.path) ? ` along ${p.path.length} points` : ` (${p.fromX}, ${p.fromY}) -> (${p.toX}, ${p.toY})`;
    case 'zoom':
      return ` ${p.width}x${p.height} at (${p.x}, ${p.y})`;
    default:
      return '';
  }
}

/**
 * The runner's view of the SDK's AgentClient. Retries are the runner's own, and logged: polls retry
 * for as long as the server is down, results until the report deadline.
 */
export function agentApi(client: AgentClient): AgentApi {
  return {
    poll: (waitSeconds, signal) => client.poll({ wait: waitSeconds, signal, maxRetries: 0 }),
    postResult: async (commandId, outcome) => {
      await client.postResult(commandId, outcome, { maxRetries: 0 });
    },
    reportScreen: async (screen) => {
      await client.reportScreen(screen, { maxRetries: 0 });
    },
  };
}
