import { ok, param } from '../core/api.js';
import { TimeoutError } from '../core/errors.js';
import type { RequestOptions } from '../core/options.js';
import { type PagePromise, pagesByCursor } from '../core/pagination.js';
import { sleep } from '../core/transport.js';
import type {
  Command,
  CommandParams,
  Computer,
  InstallCode,
  InstallCodeParams,
  ListCommandsParams,
  QueuedCommand,
  ScreenshotSize,
} from '../types.js';
import { Resource } from './resource.js';

export interface RunOptions extends RequestOptions {
  /** Wait until the command is finished (default true); false answers the command as queued. */
  waitForResult?: boolean | undefined;
  /** How often to read the command while waiting, in ms (default 250). */
  pollIntervalMs?: number | undefined;
  /** How long to wait for the result, in ms (default 60000); then TimeoutError. */
  resultTimeoutMs?: number | undefined;
}

/** States a command does not leave. */
const FINISHED = new Set(['done', 'failed', 'expired', 'cancelled']);
/** The service waits up to 30 s for a screenshot; the call needs a little longer than that. */
const SCREENSHOT_MIN_TIMEOUT_MS = 40_000;

/** Remote computers, user side (Mind Key or JWT). */
export class Computers extends Resource {
  /** A single-use install code for `screen-remote-agent register` (valid 15 minutes). */
  async createInstallCode(params: InstallCodeParams = {}, options?: RequestOptions): Promise<InstallCode> {
    return ok(this.api.computers.createInstallCode({ body: params, requestOptions: options }));
  }

  /** The computers the credential reaches, oldest first, a page at a time (pages are bounded in bytes); `for await` walks them all. */
  list(options?: RequestOptions): PagePromise<Computer> {
    return pagesByCursor(undefined, async (cursor) => {
      const body = await ok(this.api.computers.listComputers({ query: { cursor }, requestOptions: options }));
      return [body.computers, body.next_cursor];
    });
  }

  async get(computerId: string, options?: RequestOptions): Promise<Computer> {
    return ok(this.api.computers.getComputer({ params: { id: param('computerId', computerId) }, requestOptions: options }));
  }

  /** Queues a command for the computer's agent (409 ConflictError for a disabled computer). */
  async queue(computerId: string, command: CommandParams, options?: RequestOptions): Promise<QueuedCommand> {
    return ok(this.api.computers.queueCommand({ params: { id: param('computerId', computerId) }, body: command, requestOptions: options }));
  }

  /**
   * Queues a command and, unless `waitForResult: false`, waits until it is finished: the answer's
   * `status` is `done` (see `result`), `failed` (see `error`), `expired` or `cancelled`.
   */
  async run(computerId: string, command: CommandParams, options: RunOptions = {}): Promise<Command> {
    const { waitForResult = true, pollIntervalMs = 250, resultTimeoutMs = 60_000, ...requestOptions } = options;
    const queued = await this.queue(computerId, command, requestOptions);
    const deadline = Date.now() + resultTimeoutMs;
    for (;;) {
      const current = await this.getCommand(computerId, queued.command_id, requestOptions);
      if (!waitForResult || FINISHED.has(current.status)) return current;
      if (Date.now() >= deadline) {
        throw new TimeoutError({
          message: `command ${current.command_id} is still ${current.status} after ${resultTimeoutMs} ms; is the agent running?`,
        });
      }
      await sleep(pollIntervalMs, requestOptions.signal);
    }
  }

  /**
   * The computer's commands, newest first, `limit` (default 20) a page. `await` it for the first page;
   * `for await` walks them all. A screenshot's result has `screenshot: {bytes, url}` instead of its
   * bytes: see `commandScreenshot`.
   */
  listCommands(computerId: string, params: ListCommandsParams = {}, options?: RequestOptions): PagePromise<Command> {
    return pagesByCursor(params.cursor, async (cursor) => {
      // Checked inside the page's call, so a bad id rejects the promise rather than throwing.
      const path = { id: param('computerId', computerId) };
      const body = await ok(this.api.computers.listCommands({ params: path, query: { ...params, cursor }, requestOptions: options }));
      return [body.commands, body.next_cursor];
    });
  }

  /** The PNG a finished command carried (`result.screenshot.url`), as bytes; NotFoundError when it has none. */
  async commandScreenshot(computerId: string, commandId: string, options?: RequestOptions): Promise<Uint8Array> {
    const params = { id: param('computerId', computerId), cid: param('commandId', commandId) };
    const body = await ok(this.api.computers.getCommandScreenshot({ params, requestOptions: options }));
    return body as unknown as Uint8Array;
  }

  async getCommand(computerId: string, commandId: string, options?: RequestOptions): Promise<Command> {
    const params = { id: param('computerId', computerId), cid: param('commandId', commandId) };
    return ok(this.api.computers.getCommand({ params, requestOptions: options }));
  }

  /** Cancels a command that is still queued (409 ConflictError otherwise). */
  async cancelCommand(computerId: string, commandId: string, options?: RequestOptions): Promise<Command> {
    const params = { id: param('computerId', computerId), cid: param('commandId', commandId) };
    return ok(this.api.computers.cancelCommand({ params, requestOptions: options }));
  }

  /**
   * Takes a screenshot and answers the PNG bytes, scaled down to fit `max_width` x `max_height` when
   * given (a computer-use model wants at most about 1280x800); GatewayTimeoutError (504) when the agent
   * does not answer in 30 s. `screenshot(id, options)` (no size) still works as before.
   */
  async screenshot(computerId: string, size?: ScreenshotSize | RequestOptions, options?: RequestOptions): Promise<Uint8Array> {
    const sized = size !== undefined && ('max_width' in size || 'max_height' in size);
    const query = sized ? (size as ScreenshotSize) : {};
    const body = await ok(
      this.api.computers.screenshot({
        params: { id: param('computerId', computerId) },
        query: query as never,
        requestOptions: sized ? options : ((size as RequestOptions | undefined) ?? options),
        minTimeoutMs: SCREENSHOT_MIN_TIMEOUT_MS,
      }),
    );
    return body as unknown as Uint8Array;
  }

  /** Revokes the computer's token at once and keeps its record. */
  async disable(computerId: string, options?: RequestOptions): Promise<Computer> {
    return ok(this.api.computers.disableComputer({ params: { id: param('computerId', computerId) }, requestOptions: options }));
  }

  /** Deletes the computer; the service answers 204, so this resolves with nothing. */
  async delete(computerId: string, options?: RequestOptions): Promise<void> {
    await ok(this.api.computers.deleteComputer({ params: { id: param('computerId', computerId) }, requestOptions: options }));
  }
}
