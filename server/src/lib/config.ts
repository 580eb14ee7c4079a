import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
/** A size in bytes from `min` to `max`. */
const byteCount = (min: number, max: number, fallback: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const durationList = z
  .string()
  .regex(/^\d+(ms|s|m|h)?(,\d+(ms|s|m|h)?)*$/, 'must be a comma-separated list of durations like 30s,2m,10m,1h')
  .transform((value) => value.split(',').map(parseDuration));

function parseDuration(text: string): number {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text)!;
  const n = Number(match[1]);
  const unit = match[2] ?? 'ms';
  return n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!;
}
const duration = z
  .string()
  .regex(/^\d+(ms|s|m|h)?$/, 'must be a duration like 500ms, 30s or 2m')
  .transform(parseDuration);
const failureCount = z.coerce.number().int().min(1).max(1_000_000);
const failureWindow = duration.refine((ms) => ms >= 1000, 'must be at least 1s');
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Browser origins allowed to call the API (`https://app.example.com,http://localhost:5173`, or `*`). */
const corsOrigins = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  )
  .refine(
    (list) => list.every((o) => o === '*' || /^https?:\/\/[^/?#\s]+$/.test(o)),
    'must be origins like https://app.example.com (scheme and host, no path), comma-separated, or *',
  );

/** Every setting comes from the environment; this is the only place that reads it. */
const EnvSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  MIND_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite in MIND_DATA_DIR)')
    .optional(),
  MIND_JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  MIND_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (32 bytes)')
    .optional(),
  MIND_PUBLIC_URL: z.string().url('must be a URL like https://mind.example.com').optional(),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  MIND_BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
  MIND_WEBHOOK_RETRY_SCHEDULE: durationList.default('30s,2m,10m,1h,6h,24h'),
  MIND_WEBHOOK_TIMEOUT: duration.default('10s'),
  MIND_WEBHOOK_ALLOW_PRIVATE: flag.default('false'),
  MIND_SCREENSHOT_WAIT: duration.default('30s'),
  // Receiving a request (headers and body): a client sending a few bytes a second is cut off.
  MIND_REQUEST_TIMEOUT: duration.refine((ms) => ms >= 1000, 'must be at least 1s').default('25s'),
  MIND_HEADERS_TIMEOUT: duration.refine((ms) => ms >= 1000, 'must be at least 1s').default('10s'),
  MIND_SHUTDOWN_TIMEOUT: duration.default('10s'),
  MIND_CORS_ORIGINS: corsOrigins.default(''),
  // Safe on the open internet: webhook targets and PostgreSQL limits.
  MIND_WEBHOOK_ALLOW_LOCALHOST: flag.optional(),
  MIND_DB_STATEMENT_TIMEOUT: duration.default('30s'),
  MIND_DB_ACQUIRE_TIMEOUT: duration.default('10s'),
  MIND_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  // Failed logins and install-code registrations, and the threads that hash passwords.
  MIND_LOGIN_MAX_FAILURES_PER_ACCOUNT: failureCount.default(10),
  MIND_LOGIN_MAX_FAILURES_PER_ADDRESS: failureCount.default(30),
  MIND_LOGIN_FAILURE_WINDOW: failureWindow.default('15m'),
  MIND_INSTALL_CODE_MAX_FAILURES_PER_ADDRESS: failureCount.default(30),
  MIND_INSTALL_CODE_FAILURE_WINDOW: failureWindow.default('15m'),
  MIND_PASSWORD_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  // Computers: caps, the size of a result, how long finished commands are kept.
  MIND_MAX_COMPUTERS_PER_USER: z.coerce.number().int().min(1).max(1_000_000).default(100),
  MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER: z.coerce.number().int().min(1).max(100_000).default(100),
  MIND_MAX_INSTALL_CODES_PER_MIND: z.coerce.number().int().min(1).max(10_000).default(20),
  MIND_MAX_COMPUTERS_PER_MIND: z.coerce.number().int().min(1).max(1_000_000).default(10),
  MIND_MAX_RESULT_BYTES: byteCount(1024, 16 * 1024 * 1024, 64 * 1024),
  MIND_COMMAND_RETENTION: z
    .string()
    .regex(/^\d+(ms|s|m|h|d)?$/, 'must be a duration like 12h or 7d (0: no limit by age)')
    .transform((v) => (v.endsWith('d') ? Number(v.slice(0, -1)) * 86_400_000 : parseDuration(v)))
    .default('7d'),
  MIND_COMMANDS_KEPT_PER_COMPUTER: z.coerce.number().int().min(0).max(10_000_000).default(1000),
  // Growth bounds: minds per user, pending deliveries per webhook, mind deletion chunks.
  MIND_MAX_MINDS_PER_USER: z.coerce.number().int().min(1).max(100000).default(100),
  MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK: z.coerce.number().int().min(1).max(1000000).default(1000),
  MIND_DELETE_CHUNK_SIZE: z.coerce.number().int().min(1).max(100000).default(500),
  // Mind imports: items per document, and how many run at once.
  MIND_IMPORT_MAX_ITEMS: z.coerce.number().int().min(1).max(1_000_000).default(100_000),
  MIND_IMPORT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(2),
  MIND_IMPORT_CONCURRENCY_PER_USER: z.coerce.number().int().min(1).max(1000).default(1),
  // Recall by meaning: which embedder, and memory for the vectors of searched minds.
  MIND_EMBEDDINGS: z.enum(['local', 'openai', 'off'], { message: 'must be local, openai or off' }).default('local'),
  MIND_EMBEDDINGS_URL: z.string().url('must be the URL of an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1').optional(),
  MIND_EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  MIND_EMBEDDINGS_API_KEY: z.string().min(1).optional(),
  MIND_EMBEDDINGS_CACHE_DIR: z.string().min(1).optional(),
  MIND_EMBEDDINGS_TIMEOUT: duration.default('30s'),
  MIND_VECTOR_CACHE_MB: z.coerce.number().int().min(1).max(100_000).default(256),
  // MCP: the bytes of one answer on /mcp, a whole batch's answer included.
  MIND_MCP_MAX_ANSWER_BYTES: byteCount(64 * 1024, 256 * 1024 * 1024, 8 * 1024 * 1024),
  MIND_MCP_BATCH_WAIT: duration.refine((ms) => ms <= 30_000, 'must be at most 30s (what one call may wait)').default('30s'),
  // A list page ends early once its items' JSON reaches this many bytes (1 MiB: one script at its 1,000,000-character maximum fits).
  MIND_PAGE_MAX_BYTES: byteCount(1024, 64 * 1024 * 1024, 1024 * 1024),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  jwtSecret?: string;
  encryptionKey?: string;
  publicUrl: string;
  trustProxy: number;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  bcryptCost: number;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  webhookAllowPrivate: boolean;
  screenshotWaitMs: number;
  shutdownTimeoutMs: number;
  /**
   * Longest time to receive a request's headers, and the whole request with its body (serve.ts);
   * the answer may take longer (long-polls, screenshots).
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Origins a browser app may call the API from; empty: CORS off. */
  corsOrigins: string[];
  /** `http://localhost` webhook targets: by default only while the server listens on loopback alone. */
  webhookAllowLocalhost: boolean;
  /** PostgreSQL: longest statement (0: no limit), longest wait for a pool connection, pool size. */
  dbStatementTimeoutMs: number;
  dbAcquireTimeoutMs: number;
  dbPoolSize: number;
  /** Failed logins allowed per account (email) and per client address in one window, and the window. */
  loginMaxFailuresPerAccount: number;
  loginMaxFailuresPerAddress: number;
  loginFailureWindowMs: number;
  /** Failed computer registrations (install codes) allowed per client address in one window, and the window. */
  installCodeMaxFailuresPerAddress: number;
  installCodeFailureWindowMs: number;
  /** Worker threads that hash and check passwords (default: one core left for requests, at most 2). */
  passwordThreads: number;
  /** Computers: caps (409 past them), the JSON size of a non-screenshot result, retention of finished commands (0: no limit). */
  maxComputersPerUser: number;
  maxQueuedCommandsPerComputer: number;
  maxInstallCodesPerMind: number;
  /** Computers a Mind Key may set up for its mind, its open install codes counted (the owner's JWT: the account's cap only). */
  maxComputersPerMind: number;
  maxResultBytes: number;
  commandRetentionMs: number;
  commandsKeptPerComputer: number;
  /** Minds one user may have (the next POST /minds is a 409). */
  maxMindsPerUser: number;
  /** Pending deliveries kept per webhook; beyond it the oldest pending fail (see webhooks/worker.ts). */
  maxPendingDeliveriesPerWebhook: number;
  /** Rows a deleted mind's background purge removes per statement (minds/purge.ts). */
  mindDeleteChunkSize: number;
  /** Items one import document may hold (413 past it), imports at once per process and per account (429 past them). */
  importMaxItems: number;
  importConcurrency: number;
  importConcurrencyPerUser: number;
  /** The embedder of recall by meaning: local word vectors, an OpenAI-compatible server, or off (keyword only). */
  embeddings: { mode: 'local' | 'openai' | 'off'; cacheDir: string; timeoutMs: number; url?: string; model?: string; apiKey?: string };
  /** Memory for the vectors of recently searched minds (meaning/vector-index.ts). */
  vectorCacheBytes: number;
  /** The most bytes one `/mcp` answer holds: a tool's result alone, and a batch's answers together. */
  mcpMaxAnswerBytes: number;
  /** The time one JSON-RPC batch on `/mcp` may spend waiting, all its calls together. */
  mcpBatchWaitMs: number;
  /** A list page ends early (with its next cursor) once its items' JSON reaches this many bytes; it always holds one item. */
  pageMaxBytes: number;
  /** Check every response against the contract (tests turn it on; it costs time per request). */
  validateResponses: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (i) => `  ${i.path.join('.')}: ${i.message}${i.path[0] ? ` (got ${JSON.stringify(cleaned[String(i.path[0])])})` : ''}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.MIND_HEADERS_TIMEOUT > e.MIND_REQUEST_TIMEOUT) {
    throw new ConfigError(
      'Invalid configuration:\n  MIND_HEADERS_TIMEOUT: must not be longer than MIND_REQUEST_TIMEOUT (the headers are part of the request)',
    );
  }
  if (e.MIND_EMBEDDINGS === 'openai') {
    const missing = (['MIND_EMBEDDINGS_URL', 'MIND_EMBEDDINGS_MODEL'] as const).filter((name) => !e[name]);
    if (missing.length) {
      const lines = missing.map(
        (name) => `  ${name} is required when MIND_EMBEDDINGS=openai (e.g. http://127.0.0.1:11434/v1 and nomic-embed-text)`,
      );
      throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.MIND_DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.MIND_JWT_SECRET,
    encryptionKey: e.MIND_ENCRYPTION_KEY,
    publicUrl: (e.MIND_PUBLIC_URL ?? defaultPublicUrl(e.HOST, e.PORT)).replace(/\/$/, ''),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    bcryptCost: e.MIND_BCRYPT_COST,
    webhookRetrySchedule: e.MIND_WEBHOOK_RETRY_SCHEDULE,
    webhookTimeoutMs: e.MIND_WEBHOOK_TIMEOUT,
    webhookAllowPrivate: e.MIND_WEBHOOK_ALLOW_PRIVATE,
    screenshotWaitMs: e.MIND_SCREENSHOT_WAIT,
    shutdownTimeoutMs: e.MIND_SHUTDOWN_TIMEOUT,
    headersTimeoutMs: e.MIND_HEADERS_TIMEOUT,
    requestTimeoutMs: e.MIND_REQUEST_TIMEOUT,
    corsOrigins: e.MIND_CORS_ORIGINS,
    webhookAllowLocalhost: e.MIND_WEBHOOK_ALLOW_LOCALHOST ?? isLoopbackHost(e.HOST),
    dbStatementTimeoutMs: e.MIND_DB_STATEMENT_TIMEOUT,
    dbAcquireTimeoutMs: e.MIND_DB_ACQUIRE_TIMEOUT,
    dbPoolSize: e.MIND_DB_POOL_SIZE,
    loginMaxFailuresPerAccount: e.MIND_LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginMaxFailuresPerAddress: e.MIND_LOGIN_MAX_FAILURES_PER_ADDRESS,
    loginFailureWindowMs: e.MIND_LOGIN_FAILURE_WINDOW,
    installCodeMaxFailuresPerAddress: e.MIND_INSTALL_CODE_MAX_FAILURES_PER_ADDRESS,
    installCodeFailureWindowMs: e.MIND_INSTALL_CODE_FAILURE_WINDOW,
    passwordThreads: e.MIND_PASSWORD_THREADS ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
    maxComputersPerUser: e.MIND_MAX_COMPUTERS_PER_USER,
    maxQueuedCommandsPerComputer: e.MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER,
    maxInstallCodesPerMind: e.MIND_MAX_INSTALL_CODES_PER_MIND,
    maxComputersPerMind: e.MIND_MAX_COMPUTERS_PER_MIND,
    maxResultBytes: e.MIND_MAX_RESULT_BYTES,
    commandRetentionMs: e.MIND_COMMAND_RETENTION,
    commandsKeptPerComputer: e.MIND_COMMANDS_KEPT_PER_COMPUTER,
    maxMindsPerUser: e.MIND_MAX_MINDS_PER_USER,
    maxPendingDeliveriesPerWebhook: e.MIND_MAX_PENDING_DELIVERIES_PER_WEBHOOK,
    mindDeleteChunkSize: e.MIND_DELETE_CHUNK_SIZE,
    importMaxItems: e.MIND_IMPORT_MAX_ITEMS,
    importConcurrency: e.MIND_IMPORT_CONCURRENCY,
    importConcurrencyPerUser: e.MIND_IMPORT_CONCURRENCY_PER_USER,
    embeddings: {
      mode: e.MIND_EMBEDDINGS,
      // The local word table, built once from the npm package (embeddings/local-model.ts).
      cacheDir: resolve(e.MIND_EMBEDDINGS_CACHE_DIR ?? join(e.MIND_DATA_DIR, 'embeddings')),
      timeoutMs: e.MIND_EMBEDDINGS_TIMEOUT,
      ...(e.MIND_EMBEDDINGS_URL ? { url: e.MIND_EMBEDDINGS_URL } : {}),
      ...(e.MIND_EMBEDDINGS_MODEL ? { model: e.MIND_EMBEDDINGS_MODEL } : {}),
      ...(e.MIND_EMBEDDINGS_API_KEY ? { apiKey: e.MIND_EMBEDDINGS_API_KEY } : {}),
    },
    vectorCacheBytes: e.MIND_VECTOR_CACHE_MB * 1024 * 1024,
    mcpMaxAnswerBytes: e.MIND_MCP_MAX_ANSWER_BYTES,
    mcpBatchWaitMs: e.MIND_MCP_BATCH_WAIT,
    pageMaxBytes: e.MIND_PAGE_MAX_BYTES,
    validateResponses: false,
  };
}

/** Whether HOST is a loopback address only (`127.0.0.1`, any of 127.0.0.0/8, `::1`, `localhost`). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

function defaultPublicUrl(host: string, port: number): string {
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${shownHost}:${port}`;
}

/**
 * The configuration once the server listens: with `PORT=0` (tests) the real port is known only then,
 * and the rules that recognise the service's own address (webhook targets) need it.
 */
export function withListeningPort(config: Config, port: number): Config {
  if (config.port !== 0 || port === 0) return config;
  const derived = config.publicUrl === defaultPublicUrl(config.host, 0);
  return { ...config, port, publicUrl: derived ? defaultPublicUrl(config.host, port) : config.publicUrl };
}
