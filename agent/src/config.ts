// The agent's config file: server URL and Computer Token, readable only by its user (0600, dir 0700).
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface AgentConfig {
  server: string;
  computer_id: string;
  computer_token: string;
  computer_name: string;
  registered_at: string;
}

/** Raised for a missing or unreadable config; the CLI prints the message and exits. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** `--config PATH`, else $SCREEN_REMOTE_AGENT_CONFIG, else $XDG_CONFIG_HOME (or ~/.config)/screen-remote-agent/config.json. */
export function configPath(override?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (override) return override;
  if (env.SCREEN_REMOTE_AGENT_CONFIG) return env.SCREEN_REMOTE_AGENT_CONFIG;
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'screen-remote-agent', 'config.json');
}

export function configExists(path: string): boolean {
  return existsSync(path);
}

export function loadConfig(path: string): AgentConfig {
  if (!existsSync(path)) {
    throw new ConfigError(
      `no config at ${path}: register this computer first with \`screen-remote-agent register --server URL --install-code XXXX-XXXX\``,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  const config = data as Partial<AgentConfig>;
  for (const field of ['server', 'computer_id', 'computer_token'] as const) {
    if (typeof config[field] !== 'string' || config[field]!.length === 0) {
      throw new ConfigError(`${path} has no ${field}: register again with \`screen-remote-agent register --force ...\``);
    }
  }
  return {
    server: config.server!,
    computer_id: config.computer_id!,
    computer_token: config.computer_token!,
    computer_name: config.computer_name ?? '',
    registered_at: config.registered_at ?? '',
  };
}

/** The permission bits others than the owner have on the file (0 when private). */
export function looseMode(path: string): number {
  return statSync(path).mode & 0o077;
}

/** Writes the file with mode 0600 through a temporary file, so a crash never leaves half a token. */
export function saveConfig(path: string, config: AgentConfig): void {
  const dir = dirname(path);
  const created = !existsSync(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Only our own default directory is tightened; a directory the user chose with --config is theirs.
  if (created || dir.endsWith('/screen-remote-agent')) chmodSync(dir, 0o700);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600); // the mode given to writeFileSync is subject to the umask
  renameSync(temp, path);
}
