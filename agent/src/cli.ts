// `screen-remote-agent`: register this computer, run the agent, check the setup.
import { hostname, platform, release } from 'node:os';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AgentClient, BadRequestError, MindServiceError } from '@mindservice/sdk';
import { ConfigError, configExists, configPath, loadConfig, looseMode, saveConfig } from './config.js';
import { formatReport, runDoctor } from './doctor.js';
import { X11Driver } from './drivers/x11.js';
import { agentApi, DEFAULT_BACKOFF_MAX_MS, RevokedError, Runner } from './runner.js';

export const VERSION = '0.1.0';

/** Exit codes; the systemd unit does not restart on USAGE, REVOKED and NOT_REGISTERED. */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2, REVOKED: 3, NOT_REGISTERED: 4 } as const;

const MAIN_HELP = `screen-remote-agent ${VERSION}: lets Mind Service control this computer's screen, mouse and keyboard.

Usage: screen-remote-agent <command> [options]

Commands:
  register   register this computer with an install code
  run        wait for commands and carry them out (until stopped)
  doctor     check the display, the tools, the config and the server

Options:
  -h, --help       show help (also after a command: screen-remote-agent run --help)
  -v, --version    show the version

Config file: $XDG_CONFIG_HOME/screen-remote-agent/config.json (default ~/.config/...),
or --config PATH, or $SCREEN_REMOTE_AGENT_CONFIG.`;

const HELP: Record<string, string> = {
  register: `Usage: screen-remote-agent register --server URL --install-code XXXX-XXXX [--name NAME] [--config PATH] [--force]

Registers this computer with Mind Service and saves the server URL and the Computer Token in the
config file (readable only by you). Get an install code with POST /computers/install-code (its
answer's install_code).

  --server URL           the service's address, e.g. https://mind.example.com
  --install-code CODE    the install code (single use, valid 15 minutes); --code is the same
  --name NAME            the computer's name when the install code names none (default: this host's name)
  --config PATH          where to save the config
  --force                replace an existing registration`,
  run: `Usage: screen-remote-agent run [--config PATH] [--wait SECONDS] [--max-backoff SECONDS]

Waits for commands and carries them out, and reports the screen's size at start and whenever a
screenshot shows it changed. While the server is down it retries with growing pauses
(1 s doubling, at most --max-backoff), so it is back within seconds of the server's return.
Stops with exit code 3 when the token is revoked (the computer was disabled). SIGINT or SIGTERM:
finishes the command in hand, reports it, then exits 0.

  --config PATH          the config written by register
  --wait SECONDS         how long each poll waits on the server, 1..60 (default 25)
  --max-backoff SECONDS  longest pause between attempts while the server is down (default ${DEFAULT_BACKOFF_MAX_MS / 1000})`,
  doctor: `Usage: screen-remote-agent doctor [--config PATH]

Checks the display, xdotool and ImageMagick, the config file, the server and the token; prints what
is missing and how to install it. Exit code 1 when something is missing.

  --config PATH    the config written by register`,
};

const COMMON = { help: { type: 'boolean', short: 'h' }, config: { type: 'string' } } as const;
const OPTIONS = {
  register: {
    ...COMMON,
    server: { type: 'string' },
    'install-code': { type: 'string' },
    code: { type: 'string' },
    name: { type: 'string' },
    force: { type: 'boolean' },
  },
  run: { ...COMMON, wait: { type: 'string' }, 'max-backoff': { type: 'string' } },
  doctor: { ...COMMON },
} satisfies Record<string, ParseArgsConfig['options']>;

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

const defaultIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  env: process.env,
};

class UsageError extends Error {}

/** Runs the command line; resolves with the exit code. */
export async function main(argv: string[], io: Io = defaultIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    io.out(MAIN_HELP);
    return command === undefined ? EXIT.USAGE : EXIT.OK;
  }
  if (command === '-v' || command === '--version') {
    io.out(VERSION);
    return EXIT.OK;
  }
  if (!(command in OPTIONS)) {
    io.err(`unknown command "${command}"\n\n${MAIN_HELP}`);
    return EXIT.USAGE;
  }
  const name = command as keyof typeof OPTIONS;
  try {
    const { values } = parse(name, rest);
    if (values.help) {
      io.out(HELP[name]!);
      return EXIT.OK;
    }
    if (name === 'register') return await register(values as RegisterValues, io);
    if (name === 'run') return await run(values as RunValues, io);
    return await doctor(values as { config?: string }, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${HELP[name]}`);
      return EXIT.USAGE;
    }
    if (error instanceof ConfigError) {
      io.err(error.message);
      return EXIT.NOT_REGISTERED;
    }
    throw error;
  }
}

function parse(name: keyof typeof OPTIONS, args: string[]) {
  try {
    return parseArgs({ args, options: OPTIONS[name], allowPositionals: false, strict: true });
  } catch (error) {
    // Node's wording ("Unknown option '--x'. To specify a positional argument starting with a '-'...") is long.
    throw new UsageError((error as Error).message.split('. ')[0]!);
  }
}

interface RegisterValues {
  server?: string;
  'install-code'?: string;
  code?: string;
  name?: string;
  config?: string;
  force?: boolean;
}

async function register(values: RegisterValues, io: Io): Promise<number> {
  if (!values.server) throw new UsageError('--server is required');
  const installCode = values['install-code'] ?? values.code;
  if (!installCode) throw new UsageError('--install-code is required');
  const server = serverUrl(values.server);
  const computerName = (values.name ?? hostname()).trim();
  if (!computerName) throw new UsageError('--name must not be empty');
  const path = configPath(values.config, io.env);
  if (configExists(path) && !values.force) {
    let which = '';
    try {
      const existing = loadConfig(path);
      which = ` as "${existing.computer_name}" (${existing.computer_id}) with ${existing.server}`;
    } catch {
      // unreadable: still refuse without --force
    }
    io.err(`this computer is already registered${which} in ${path}; use --force to replace that registration`);
    return EXIT.FAILURE;
  }

  // The screen when a display answers; registering works without one (run reports it later).
  const screen = io.env.DISPLAY ? await new X11Driver({ env: io.env }).screenSize().catch(() => undefined) : undefined;
  let registered: Awaited<ReturnType<typeof AgentClient.register>>;
  try {
    registered = await AgentClient.register(
      server,
      {
        code: installCode.trim(),
        computer_name: computerName,
        platform: platform(),
        platform_release: release(),
        python: `node ${process.version}`,
        ...(screen ? { screen } : {}),
      },
      { timeout: 30_000 },
    );
  } catch (error) {
    if (error instanceof BadRequestError) io.err(`registration refused: ${error.message}`);
    else if (error instanceof MindServiceError) io.err(`registration failed: ${error.message}`);
    else throw error;
    return EXIT.FAILURE;
  }
  saveConfig(path, {
    server,
    computer_id: registered.computer_id,
    computer_token: registered.computer_token,
    computer_name: registered.computer_name,
    registered_at: new Date().toISOString(),
  });
  io.out(`Registered "${registered.computer_name}" as computer ${registered.computer_id}.`);
  io.out(`Config saved to ${path} (readable only by you). Start the agent with: screen-remote-agent run`);
  return EXIT.OK;
}

interface RunValues {
  config?: string;
  wait?: string;
  'max-backoff'?: string;
}

async function run(values: RunValues, io: Io): Promise<number> {
  const wait = wholeNumber(values.wait, '--wait', 1, 60) ?? 25;
  const maxBackoff = wholeNumber(values['max-backoff'], '--max-backoff', 1, 3600) ?? DEFAULT_BACKOFF_MAX_MS / 1000;
  const path = configPath(values.config, io.env);
  const config = loadConfig(path);
  const log = (line: string) => io.err(`${new Date().toISOString()} ${line}`);
  if (looseMode(path) !== 0) log(`warning: ${path} is readable by others; chmod 600 ${path}`);
  if (!io.env.DISPLAY) log('warning: DISPLAY is not set; commands will fail until the agent runs with a display (e.g. DISPLAY=:0)');

  const client = new AgentClient({ baseUrl: config.server, computerToken: config.computer_token, maxRetries: 0 });
  const runner = new Runner({
    api: agentApi(client),
    driver: new X11Driver({ env: io.env }),
    log,
    pollWaitSeconds: wait,
    backoffMaxMs: maxBackoff * 1000,
  });

  const onSignal = (signal: NodeJS.Signals) => {
    if (runner.isStopping) {
      log(`${signal} again: exiting without waiting`);
      process.exit(130);
    }
    log(`${signal}: finishing the command in hand, then exiting`);
    runner.stop();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  log(
    `screen-remote-agent ${VERSION}: computer "${config.computer_name}" (${config.computer_id}) waiting for commands from ${config.server}`,
  );
  try {
    await runner.run();
    return EXIT.OK;
  } catch (error) {
    if (error instanceof RevokedError) {
      log(error.message);
      return EXIT.REVOKED;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

async function doctor(values: { config?: string }, io: Io): Promise<number> {
  io.out(`screen-remote-agent ${VERSION} doctor`);
  const report = await runDoctor({ env: io.env, config: values.config });
  io.out(formatReport(report));
  return report.ok ? EXIT.OK : EXIT.FAILURE;
}

function serverUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server must be a URL such as https://mind.example.com, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--server must start with http:// or https://');
  return url.toString().replace(/\/+$/, '');
}

function wholeNumber(value: string | undefined, flag: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  return n;
}
