/** Every duration and limit of the computers area, in one place (docs/computers.md). */

/** An install code works this long after it was made, once. */
export const INSTALL_CODE_TTL_MS = 15 * 60_000;
/** Install codes are `XXXX-XXXX` from letters and digits that cannot be mistaken for each other. */
export const INSTALL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const INSTALL_CODE_LENGTH = 8;

/** A command not finished this long after it was queued becomes `expired`. */
export const COMMAND_TTL_MS = 10 * 60_000;
/** A `sent` command whose result has not come back after this long is given up (or, a screenshot, queued again). */
export const SENT_LEASE_MS = 60_000;
/** A screenshot is handed to the agent at most this often. */
export const SCREENSHOT_MAX_ATTEMPTS = 3;
/** How often the one sweeper of the process looks for lapsed leases and expired commands. */
export const SWEEP_INTERVAL_MS = 1_000;

/** A computer counts as online while it polls and this long after it last called. */
export const ONLINE_WINDOW_MS = 90_000;
/** Seconds a poll waits when the agent does not say. */
export const POLL_DEFAULT_WAIT_S = 25;
/** At most this many commands are handed over by one poll answer (oldest first). */
export const POLL_BATCH = 20;
/** Commands listed when `limit` is not given. */
export const COMMAND_LIST_DEFAULT = 20;

/** Retention deletes at most this many commands per statement, and at most PURGE_CHUNKS statements per kind and sweep. */
export const PURGE_CHUNK = 500;
export const PURGE_CHUNKS = 4;
/** Computers whose kept count is checked per sweep (those that got commands first, then a walk over all of them). */
export const PURGE_COUNT_CHECKS = 100;
/** Computers remembered between sweeps; beyond it the walk over all computers catches the rest. */
export const PURGE_MAX_TOUCHED = 10_000;

export const AGENT_DID_NOT_REPORT = 'agent did not report';
export const NOT_FINISHED_IN_TIME = `not finished within ${COMMAND_TTL_MS / 60_000} minutes`;
