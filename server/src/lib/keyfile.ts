import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data directory, created mode 0700 whatever the umask. A directory that
 * already exists keeps its mode: the operator may have chosen it (a mounted volume, a shared parent).
 */
export function ensurePrivateDir(dir: string): void {
  if (mkdirSync(dir, { recursive: true, mode: 0o700 }) !== undefined) chmodSync(dir, 0o700);
}

/**
 * A file only this user may read and write (0600 whatever the umask): created empty when `create` and
 * missing, narrowed when it exists with wider permissions and belongs to this user. SQLite gives the
 * `-wal` and `-shm` files it creates the mode of the database file, so creating that one first covers
 * them. An existing file is changed by path, never opened: closing a descriptor of a database file
 * would drop the POSIX locks SQLite holds on it in this process.
 */
export function ensurePrivateFile(path: string, create = true): void {
  if (create) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
  if ((stat.mode & 0o777) !== 0o600 && mine) chmodSync(path, 0o600);
}

/**
 * Reads a generated secret from the data directory, creating it (mode 0600) on first start,
 * so tokens and encrypted data survive restarts without any configuration.
 */
export function loadOrCreateKeyFile(dataDir: string, name: string, bytes = 32): string {
  ensurePrivateDir(dataDir);
  const path = join(dataDir, name);
  if (existsSync(path)) {
    ensurePrivateFile(path, false);
    return readFileSync(path, 'utf8').trim();
  }
  const value = randomBytes(bytes).toString('hex');
  writeFileSync(path, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(path, 0o600);
  return value;
}
