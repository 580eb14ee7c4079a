/** A unique index refused the write (SQLite or PostgreSQL). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

/**
 * The database could not answer in time: PostgreSQL cancelled the statement (SQLSTATE 57014
 * query_canceled: MIND_DB_STATEMENT_TIMEOUT, or an operator's pg_cancel_backend), or no pool
 * connection came free within the acquire timeout (knex's KnexTimeoutError). Worth retrying later.
 */
export function isDatabaseBusy(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown } | null;
  return e?.code === '57014' || e?.name === 'KnexTimeoutError';
}
