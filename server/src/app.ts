import type { IncomingMessage, ServerResponse } from 'node:http';
import { contract } from '@mindservice/contract';
import { createExpressEndpoints } from '@ts-rest/express';
import express from 'express';
import pino, { type Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import { accountsHandlers } from './accounts/handlers.js';
import { computersHandlers } from './computers/handlers.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { WalCheckpointer } from './db/checkpointer.js';
import { migrateLatest, openDatabase, sqliteFile } from './db/database.js';
import { EventRecorder } from './events/recorder.js';
import { createAuthenticator } from './http/auth.js';
import { directRoute, directRoutes } from './http/direct-routes.js';
import { ApiError, errorMiddleware, notFoundMiddleware, sendError, validationError } from './http/errors.js';
import { DatabaseRateLimiter, MemoryRateLimiter } from './http/rate-limit.js';
import { type RawRequest, requestLog } from './http/request-log.js';
import { type Clock, systemClock } from './lib/clock.js';
import { loadOrCreateKeyFile } from './lib/keyfile.js';
import { loadOrCreateServiceSecret } from './lib/service-secret.js';
import { memoriesHandlers } from './memories/handlers.js';
import { mindsHandlers } from './minds/handlers.js';
import { docsRouter } from './system/docs.js';
import { systemHandlers } from './system/handlers.js';
import { tasksHandlers } from './tasks/handlers.js';
import { webhooksHandlers } from './webhooks/handlers.js';

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
}

export interface MindApp {
  /** The request listener: hand it to http.createServer (serve.ts) or to supertest. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  ctx: AppContext;
  /** Starts a graceful shutdown: new requests get 503, waiting long-polls end; in-flight work goes on. */
  drain(): Promise<void>;
  /** Requests being answered right now. */
  inFlight(): number;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
}

/** Paths whose bodies may be large: the agent's results (screenshots) and mind imports. */
const LARGE_BODY_PATHS = ['/computers/me/commands', '/memory/mind-import'];

/** Builds the service (database migrated, workers started) without listening. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<MindApp> {
  const log = options.logger ?? pino({ level: config.logLevel, base: undefined });
  const clock = options.clock ?? systemClock;
  const db = openDatabase(config);
  const closers: Array<() => Promise<void> | void> = [() => db.destroy()];
  const drainers: Array<() => Promise<void> | void> = [];
  const startup: Promise<unknown>[] = [];
  let inFlight = 0;
  try {
    const applied = await migrateLatest(db);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  } catch (err) {
    await db.destroy();
    throw err;
  }

  if (config.databaseUrl && !config.encryptionKey) {
    // Instances sharing PostgreSQL must agree on the key; without MIND_ENCRYPTION_KEY it lives in the database.
    config = { ...config, encryptionKey: await loadOrCreateServiceSecret(db, 'encryption-key') };
    log.warn('MIND_ENCRYPTION_KEY is not set: the encryption key is kept in the database, so a dump of the database alone reveals encrypted data. Set it in production.');
  }

  const ctx: AppContext = {
    config,
    db,
    log,
    clock,
    events: new EventRecorder(clock),
    jwtSecret:
      config.jwtSecret ??
      (config.databaseUrl ? await loadOrCreateServiceSecret(db, 'jwt-secret') : loadOrCreateKeyFile(config.dataDir, 'jwt-secret')),
    // One process on SQLite keeps the windows in memory; instances sharing PostgreSQL share them there.
    keyRateLimiter: config.databaseUrl ? new DatabaseRateLimiter(db, clock) : new MemoryRateLimiter(clock),
    startedAt: Date.now(),
    state: 'starting',
    onClose: (fn) => closers.push(fn),
    onDrain: (fn) => drainers.push(fn),
    beforeReady: (work) => startup.push(work),
  };

  const app = express();
  app.disable('x-powered-by');
  // No ETags: API answers change with every write and clients do not revalidate; hashing every body
  // cost about 8 % of the CPU of a task list request.
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  app.use(LARGE_BODY_PATHS, express.json({ limit: '25mb' }));
  app.use(express.json({ limit: '1mb' }));
  const docs = docsRouter();
  app.use((req, res, next) => (req.path === '/openapi.json' || req.path.startsWith('/docs') ? docs(req, res, next) : next()));

  const router = {
    system: systemHandlers(ctx),
    accounts: accountsHandlers(ctx),
    minds: mindsHandlers(ctx),
    tasks: tasksHandlers(ctx),
    memories: memoriesHandlers(ctx),
    webhooks: webhooksHandlers(ctx),
    computers: computersHandlers(ctx),
  };
  const auth = createAuthenticator(ctx);
  createExpressEndpoints(contract, router, app, {
    logInitialization: false,
    responseValidation: config.validateResponses,
    // ts-rest types its middleware per route; ours reads only the route metadata, which every route has.
    globalMiddleware: [auth.middleware as never],
    requestValidationErrorHandler: (err, _req, _res, next) => next(validationError(err)),
  });

  const unexpected = (err: unknown, req: RawRequest) => log.error({ req_id: req.requestId, err }, 'unexpected error');
  app.use(notFoundMiddleware);
  app.use(errorMiddleware(unexpected));

  const ipOf = (req: RawRequest) => proxyAddr(req, app.get('trust proxy fn'));
  const logRequest = requestLog(log, ipOf);
  // The routes agents call most, served before Express with the same parts (see direct-routes.ts):
  // the long-poll every computer holds, and the memory write and task list.
  const direct = directRoutes(
    [
      directRoute(contract.computers.pollCommands, router.computers.pollCommands),
      directRoute(contract.memories.storeMemory, router.memories.storeMemory),
      directRoute(contract.tasks.listTasks, router.tasks.listTasks),
    ],
    auth,
    { validateResponses: config.validateResponses, ipOf, onUnexpected: unexpected },
  );
  const handle = (req: RawRequest, res: ServerResponse) => {
    logRequest(req, res);
    inFlight++;
    res.once('close', () => inFlight--);
    if (ctx.state === 'draining' && req.url?.split('?')[0] !== '/health') {
      res.setHeader('Connection', 'close');
      return sendError(res, new ApiError(503, 'The service is shutting down. Retry in a few seconds.', { headers: { 'Retry-After': '5' } }));
    }
    const serveDirect = direct(req);
    if (serveDirect) return serveDirect(req, res);
    app(req, res);
  };

  try {
    await Promise.all(startup);
  } catch (err) {
    for (const fn of closers.reverse().splice(0)) await fn();
    throw err;
  }
  if (!config.databaseUrl) {
    // Started last, so that a start that fails leaves no thread behind.
    const checkpointer = WalCheckpointer.start(sqliteFile(config), (message) => log.warn({ err: message }, 'WAL checkpoint failed'));
    closers.push(() => checkpointer.stop());
  }
  ctx.state = 'ready';
  let closed: Promise<void> | undefined;
  return {
    app: handle,
    ctx,
    inFlight: () => inFlight,
    async drain() {
      ctx.state = 'draining';
      for (const fn of drainers.splice(0)) await fn();
    },
    close: () =>
      (closed ??= (async () => {
        for (const fn of closers.reverse().splice(0)) await fn();
      })()),
  };
}
