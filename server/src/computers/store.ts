import type { Computer, Screen } from '@mindservice/contract';
import { type Conn, type Dialect, runSql } from '../db/database.js';

export interface ComputerIdentity {
  id: string;
  userId: string;
  mindId: string | null;
  /** The computer's mind is disabled: its token is refused like the mind's key. */
  mindDisabled: boolean;
}

/** Who may see a computer: a user sees all of theirs; a Mind Key only those tied to its mind. */
export interface ComputerScope {
  userId: string;
  mindId?: string;
}

export type InstallCodeMaker = 'mind_key' | 'user';

interface InstallCodeRow {
  code_hash: string;
  user_id: string;
  mind_id: string | null;
  computer_name: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** `mind_key`: made with a Mind Key, it registers only within the mind's share; `user`: with the owner's JWT. */
  made_by: InstallCodeMaker;
}

interface ComputerRow {
  id: string;
  user_id: string;
  mind_id: string | null;
  token_hash: string;
  computer_name: string;
  platform: string;
  platform_release: string;
  python: string;
  status: 'active' | 'disabled';
  created_at: string;
  last_seen_at: string | null;
  disabled_at: string | null;
  screen_width: number | null;
  screen_height: number | null;
  screen_scale_factor: number | null;
}

/** A computer as stored; `online` needs the clock and the poll registry, so the service adds it. */
export type StoredComputer = Omit<Computer, 'online'> & { userId: string };

const COMPUTER_COLUMNS = [
  'id',
  'user_id',
  'mind_id',
  'computer_name',
  'platform',
  'platform_release',
  'python',
  'status',
  'created_at',
  'last_seen_at',
  'screen_width',
  'screen_height',
  'screen_scale_factor',
] as const;
const toComputer = (row: Pick<ComputerRow, (typeof COMPUTER_COLUMNS)[number]>): StoredComputer => ({
  id: row.id,
  userId: row.user_id,
  mind_id: row.mind_id,
  computer_name: row.computer_name,
  platform: row.platform,
  platform_release: row.platform_release,
  python: row.python,
  status: row.status,
  created_at: row.created_at,
  last_seen_at: row.last_seen_at,
  screen: screenOf(row),
});

function screenOf(row: Pick<ComputerRow, 'screen_width' | 'screen_height' | 'screen_scale_factor'>): Screen | null {
  if (row.screen_width == null || row.screen_height == null) return null;
  const screen: Screen = { width: Number(row.screen_width), height: Number(row.screen_height) };
  if (row.screen_scale_factor != null) screen.scale_factor = Number(row.screen_scale_factor);
  return screen;
}

const screenColumns = (screen: Screen | null) => ({
  screen_width: screen?.width ?? null,
  screen_height: screen?.height ?? null,
  screen_scale_factor: screen?.scale_factor ?? null,
});

// ---- install codes

export async function insertInstallCode(conn: Conn, row: InstallCodeRow) {
  await conn<InstallCodeRow>('install_codes').insert(row);
}

export async function findInstallCode(conn: Conn, codeHash: string) {
  return conn<InstallCodeRow>('install_codes')
    .where({ code_hash: codeHash })
    .first('user_id', 'mind_id', 'computer_name', 'expires_at', 'used_at', 'made_by');
}

/** Marks the code used if it still is usable; false when another registration got there first. */
export async function useInstallCode(conn: Conn, codeHash: string, now: string): Promise<boolean> {
  const changed = await conn<InstallCodeRow>('install_codes')
    .where({ code_hash: codeHash })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .update({ used_at: now });
  return changed > 0;
}

// ---- computers

/**
 * The active computer a token belongs to; disabled computers' tokens find nothing, and neither do
 * those of a deleted mind (mind_deletions: deleted before its computers are disabled, see minds/store.ts).
 */
export async function findComputerByTokenHash(conn: Conn, tokenHash: string): Promise<ComputerIdentity | undefined> {
  // Every poll asks: one prepared statement that also says whether the computer's mind is disabled.
  const [row] = await runSql<Pick<ComputerRow, 'id' | 'user_id' | 'mind_id'> & { mind_disabled_at: string | null }>(
    conn,
    "SELECT c.id, c.user_id, c.mind_id, m.disabled_at AS mind_disabled_at FROM computers c LEFT JOIN minds m ON m.id = c.mind_id WHERE c.token_hash = ? AND c.status = 'active' AND NOT EXISTS (SELECT 1 FROM mind_deletions d WHERE d.mind_id = c.mind_id)",
    [tokenHash],
  );
  return row && { id: row.id, userId: row.user_id, mindId: row.mind_id, mindDisabled: row.mind_disabled_at != null };
}

export async function insertComputer(conn: Conn, computer: StoredComputer, tokenHash: string) {
  await conn<ComputerRow>('computers').insert({
    id: computer.id,
    user_id: computer.userId,
    mind_id: computer.mind_id,
    token_hash: tokenHash,
    computer_name: computer.computer_name,
    platform: computer.platform,
    platform_release: computer.platform_release,
    python: computer.python,
    status: computer.status,
    created_at: computer.created_at,
    last_seen_at: computer.last_seen_at,
    disabled_at: null,
    ...screenColumns(computer.screen),
  });
}

const scoped = (conn: Conn, scope: ComputerScope) => {
  const query = conn<ComputerRow>('computers').where({ user_id: scope.userId });
  return scope.mindId === undefined ? query : query.where({ mind_id: scope.mindId });
};

export async function findComputer(conn: Conn, scope: ComputerScope, id: string): Promise<StoredComputer | undefined> {
  const row = await scoped(conn, scope)
    .where({ id })
    .first(...COMPUTER_COLUMNS);
  return row && toComputer(row);
}

/** One page in creation order after `after`; `limit + 1` are read to learn whether more follow. */
export async function listComputers(
  conn: Conn,
  scope: ComputerScope,
  page: { limit: number; after?: { createdAt: string; id: string } },
): Promise<{ computers: StoredComputer[]; more: boolean }> {
  const query = scoped(conn, scope);
  const at = page.after;
  if (at)
    query.where((w) =>
      w.where('created_at', '>', at.createdAt).orWhere((x) => x.where('created_at', at.createdAt).where('id', '>', at.id)),
    );
  const rows = await query
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .limit(page.limit + 1)
    .select(...COMPUTER_COLUMNS);
  return { computers: rows.slice(0, page.limit).map(toComputer), more: rows.length > page.limit };
}

/** Records that the agent called; false when the computer is disabled or gone. */
export async function touchActiveComputer(conn: Conn, id: string, now: string): Promise<boolean> {
  return (await conn<ComputerRow>('computers').where({ id, status: 'active' }).update({ last_seen_at: now })) > 0;
}

/** The screen an active computer's agent reports; false when the computer is disabled or gone. */
export async function updateScreen(conn: Conn, id: string, screen: Screen, now: string): Promise<boolean> {
  const changed = await conn<ComputerRow>('computers')
    .where({ id, status: 'active' })
    .update({ ...screenColumns(screen), last_seen_at: now });
  return changed > 0;
}

export async function disableComputer(conn: Conn, id: string, now: string) {
  await conn<ComputerRow>('computers').where({ id, status: 'active' }).update({ status: 'disabled', disabled_at: now });
}

/** Its commands go with it (ON DELETE CASCADE). */
export async function deleteComputer(conn: Conn, id: string) {
  await conn<ComputerRow>('computers').where({ id }).delete();
}

export async function computerMindId(conn: Conn, id: string): Promise<string | null> {
  const row = await conn<ComputerRow>('computers').where({ id }).first('mind_id');
  return row?.mind_id ?? null;
}

// ---- caps

export async function countComputersOfUser(conn: Conn, userId: string): Promise<number> {
  const row = await conn<ComputerRow>('computers').where({ user_id: userId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export async function countComputersOfMind(conn: Conn, mindId: string): Promise<number> {
  const row = await conn<ComputerRow>('computers').where({ mind_id: mindId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Unused, unexpired install codes made with the mind's Mind Key (they hold places of its share). */
export async function countOpenMindKeyCodes(conn: Conn, mindId: string, now: string): Promise<number> {
  const row = await conn<InstallCodeRow>('install_codes')
    .where({ mind_id: mindId, made_by: 'mind_key' })
    .whereNull('used_at')
    .where('expires_at', '>', now)
    .count({ n: '*' })
    .first();
  return Number(row?.n ?? 0);
}

/**
 * Makes the transactions that set up computers for this mind take turns (PostgreSQL; SQLite runs one
 * write transaction at a time): each counts what the one before it committed. `NO KEY` leaves the
 * mind's rows elsewhere free to be written meanwhile.
 */
export async function lockMindForComputers(conn: Conn, dialect: Dialect, mindId: string): Promise<void> {
  if (!dialect.oneWriterAtATime) await conn('minds').where({ id: mindId }).forNoKeyUpdate().select('id');
}

/** Unused, unexpired install codes of a mind (or, `mindId` null, the user's codes tied to no mind). */
export async function countOpenInstallCodes(conn: Conn, userId: string, mindId: string | null, now: string): Promise<number> {
  const query = conn<InstallCodeRow>('install_codes').whereNull('used_at').where('expires_at', '>', now);
  const scopedQuery = mindId === null ? query.where({ user_id: userId }).whereNull('mind_id') : query.where({ mind_id: mindId });
  const row = await scopedQuery.count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** Computer ids in id order after `afterId`, for the sweeper's walk over every computer. */
export async function computerIdsAfter(conn: Conn, afterId: string, limit: number): Promise<string[]> {
  const rows = await conn<ComputerRow>('computers').where('id', '>', afterId).orderBy('id').limit(limit).select('id');
  return rows.map((r) => r.id);
}
