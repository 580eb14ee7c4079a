// The agent side of remote computer control: register with an install code, long-poll for commands, post
// results. `screen-remote-agent` is built on this.
import { type Api, createApi, ok, param } from './core/api.js';
import { RequestAbortedError } from './core/errors.js';
import type { RequestOptions, TransportOptions } from './core/options.js';
import { Transport } from './core/transport.js';
import type {
  CommandResult,
  CommandResultParams,
  ComputerScreen,
  PolledCommand,
  RegisteredComputer,
  RegisterComputerParams,
} from './types.js';

/** A computer's screen in pixels (`scale_factor` where the platform has one), as `Computer.screen` shows it. */

export interface AgentClientOptions extends TransportOptions {
  /** The Computer Token (`ct_...`) from registration. */
  computerToken?: string | undefined;
}

export interface PollOptions extends RequestOptions {
  /** Seconds the service may hold the poll open when nothing is queued (0..60, default 25). */
  wait?: number | undefined;
}

/** How much longer than `wait` a poll may take before it counts as timed out. */
const POLL_GRACE_MS = 15_000;

export class AgentClient {
  private readonly transport: Transport;
  private readonly api: Api;

  constructor(options: AgentClientOptions) {
    const { computerToken, ...transport } = options;
    this.transport = new Transport(transport, { computerToken });
    this.api = createApi(this.transport);
  }

  /** The Computer Token in use, if any. */
  get computerToken(): string | undefined {
    return this.transport.credentials.computerToken;
  }

  /** Registers a computer with an install code; the token in the answer is shown only once. */
  static async register(
    baseUrl: string,
    params: RegisterComputerParams,
    options: Omit<AgentClientOptions, 'baseUrl' | 'computerToken'> & RequestOptions = {},
  ): Promise<RegisteredComputer> {
    const { timeout, maxRetries, signal, headers, idempotent, ...transport } = options;
    return new AgentClient({ ...transport, baseUrl }).register(params, { timeout, maxRetries, signal, headers, idempotent });
  }

  /** Registers this computer and from then on uses the new token. */
  async register(params: RegisterComputerParams, options?: RequestOptions): Promise<RegisteredComputer> {
    const registered = await ok(this.api.computers.registerComputer({ body: params, requestOptions: options }));
    this.transport.credentials.computerToken = registered.computer_token;
    return registered;
  }

  /**
   * Waits up to `wait` seconds for commands; answers at once when some are queued. The commands answered
   * are marked `sent`: report each with postResult. A newer poll ends an older one with no commands.
   */
  async poll(options: PollOptions = {}): Promise<PolledCommand[]> {
    const { wait, ...requestOptions } = options;
    const seconds = wait ?? 25;
    const body = await ok(
      this.api.computers.pollCommands({
        query: { wait: seconds },
        requestOptions,
        minTimeoutMs: seconds * 1000 + POLL_GRACE_MS,
      }),
    );
    return body.commands;
  }

  /** Reports a command's outcome. A finished command is 409 (ConflictError); another computer's 404. */
  async postResult(commandId: string, result: CommandResultParams, options?: RequestOptions): Promise<CommandResult> {
    return ok(
      this.api.computers.postCommandResult({ params: { cid: param('commandId', commandId) }, body: result, requestOptions: options }),
    );
  }

  /** Reports the screen's size (at start and whenever it changes); `GET /computers/:id` then shows it. */
  async reportScreen(screen: ComputerScreen, options?: RequestOptions): Promise<{ computer_id: string; screen: ComputerScreen }> {
    return ok(this.api.computers.reportScreen({ body: screen, requestOptions: options }));
  }

  /**
   * Polls without end and yields each command. Ends quietly when `signal` aborts; any other error
   * (UnauthorizedError once the computer is disabled, ConnectionError after the retries) ends it by throwing.
   */
  async *commands(options: PollOptions = {}): AsyncGenerator<PolledCommand, void, undefined> {
    while (!options.signal?.aborted) {
      let batch: PolledCommand[];
      try {
        batch = await this.poll(options);
      } catch (err) {
        if (err instanceof RequestAbortedError) return;
        throw err;
      }
      for (const command of batch) yield command;
    }
  }
}
