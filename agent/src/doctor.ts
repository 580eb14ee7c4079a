// `screen-remote-agent doctor`: checks everything the agent needs and says how to fix what is missing.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { configExists, configPath, loadConfig, looseMode } from './config.js';
import { X11_TOOLS, X11Driver } from './drivers/x11.js';

export interface Check {
  name: string;
  ok: boolean;
  /** What was found, or what is wrong and how to fix it. */
  detail: string;
  /** A failed check that only warns (the agent may still work). */
  warning?: boolean;
}

export interface DoctorReport {
  checks: Check[];
  /** Debian packages to install for the failed checks. */
  packages: string[];
  ok: boolean;
}

export interface DoctorOptions {
  env?: NodeJS.ProcessEnv;
  config?: string;
  /** Milliseconds for each server request (default 5000). */
  timeoutMs?: number;
}

// A well-formed id no command has: the server answers 404 for a good token and 401 for a revoked one,
// so the token can be checked without taking any queued command.
const PROBE_COMMAND_ID = '00000000-0000-4000-8000-000000000000';

export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const checks: Check[] = [];
  const packages: string[] = [];

  checks.push(
    process.platform === 'linux'
      ? { name: 'platform', ok: true, detail: 'linux (X11 driver)' }
      : { name: 'platform', ok: false, detail: `${process.platform} is not supported yet: the agent has a Linux X11 driver only` },
  );
  if (env.XDG_SESSION_TYPE === 'wayland') {
    checks.push({
      name: 'session',
      ok: false,
      warning: true,
      detail: 'Wayland session: xdotool reaches only X11 (XWayland) windows; log in with an "Xorg" session for full control',
    });
  }

  const display = env.DISPLAY;
  checks.push(
    display
      ? { name: 'DISPLAY', ok: true, detail: display }
      : { name: 'DISPLAY', ok: false, detail: 'not set: run the agent inside the desktop session, or set DISPLAY=:0' },
  );

  const present = new Set<string>();
  for (const tool of X11_TOOLS) {
    const found = findOnPath(tool.command, env);
    if (found) present.add(tool.command);
    else packages.push(tool.packageName);
    checks.push({
      name: `${tool.command} (${tool.purpose})`,
      ok: Boolean(found),
      detail: found ?? `not found: sudo apt-get install ${tool.packageName}`,
    });
  }

  if (display && present.has('xdotool')) {
    const driver = new X11Driver({ env });
    try {
      const { width, height } = await driver.screenSize();
      checks.push({ name: 'display', ok: true, detail: `${display} reachable, screen ${width}x${height}` });
      if (present.has('import')) {
        const shot = await driver.screenshot().then(
          (s) => ({ ok: true, detail: `${s.width}x${s.height} PNG, ${(s.png.length / 1024).toFixed(1)} KiB` }),
          (e: Error) => ({ ok: false, detail: e.message }),
        );
        checks.push({ name: 'screenshot', ...shot });
      }
    } catch (error) {
      checks.push({ name: 'display', ok: false, detail: (error as Error).message });
    }
  }

  const path = configPath(options.config, env);
  if (!configExists(path)) {
    checks.push({
      name: 'config',
      ok: false,
      detail: `${path} does not exist: run screen-remote-agent register --server URL --install-code XXXX-XXXX`,
    });
  } else {
    try {
      const config = loadConfig(path);
      const loose = looseMode(path);
      checks.push(
        loose === 0
          ? { name: 'config', ok: true, detail: `${path} (computer ${config.computer_name || config.computer_id})` }
          : { name: 'config', ok: false, detail: `${path} is readable by others (mode ${(0o600 | loose).toString(8)}): chmod 600 ${path}` },
      );
      checks.push(...(await serverChecks(config.server, config.computer_token, options.timeoutMs ?? 5000)));
    } catch (error) {
      checks.push({ name: 'config', ok: false, detail: (error as Error).message });
    }
  }

  return { checks, packages, ok: checks.every((c) => c.ok || c.warning) };
}

async function serverChecks(server: string, token: string, timeoutMs: number): Promise<Check[]> {
  try {
    const health = await fetch(`${server}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!health.ok) return [{ name: 'server', ok: false, detail: `${server}/health answered ${health.status}` }];
  } catch (error) {
    return [{ name: 'server', ok: false, detail: `cannot reach ${server}: ${causeOf(error)}` }];
  }
  const checks: Check[] = [{ name: 'server', ok: true, detail: `${server} reachable` }];
  try {
    const probe = await fetch(`${server}/computers/me/commands/${PROBE_COMMAND_ID}/result`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'failed', error: 'doctor probe' }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    checks.push(
      probe.status === 401
        ? {
            name: 'token',
            ok: false,
            detail: 'refused (401): the computer was disabled or deleted; register again with a new install code',
          }
        : { name: 'token', ok: true, detail: 'accepted' },
    );
  } catch (error) {
    checks.push({ name: 'token', ok: false, detail: `cannot check: ${causeOf(error)}` });
  }
  return checks;
}

export function formatReport(report: DoctorReport): string {
  const lines = report.checks.map((c) => `  ${c.ok ? 'ok  ' : c.warning ? 'warn' : 'FAIL'}  ${c.name}: ${c.detail}`);
  if (report.packages.length > 0) lines.push('', `Install the missing tools: sudo apt-get install ${report.packages.join(' ')}`);
  lines.push('', report.ok ? 'Everything the agent needs is in place.' : 'Something the agent needs is missing (see FAIL above).');
  return lines.join('\n');
}

function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

function causeOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  return cause?.code ?? cause?.message ?? error.message;
}
