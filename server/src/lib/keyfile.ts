import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads a generated secret from the data directory, creating it (mode 0600) on first start,
 * so tokens and encrypted data survive restarts without any configuration.
 */
export function loadOrCreateKeyFile(dataDir: string, name: string, bytes = 32): string {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, name);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = randomBytes(bytes).toString('hex');
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return value;
}
