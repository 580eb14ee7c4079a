import type { Logger } from 'pino';
import type { Config } from '../lib/config.js';
import type { Db, Dialect } from '../db/database.js';
import type { EventRecorder } from '../events/recorder.js';
import type { RateLimiter } from '../http/rate-limit.js';
import type { Clock } from '../lib/clock.js';

export type ServiceState = 'starting' | 'ready' | 'draining';

/** What handlers and services share: built once by createApp. */
export interface AppContext {
  config: Config;
  db: Db;
  /** What differs between the databases (db/dialect.ts), chosen once from the config. */
  dialect: Dialect;
  log: Logger;
  clock: Clock;
  events: EventRecorder;
  jwtSecret: string;
  keyRateLimiter: RateLimiter;
  startedAt: number;
  state: ServiceState;
  /** Called by close(), last registered first: background workers stop before the database closes. */
  onClose(fn: () => Promise<void> | void): void;
}
