import type { IncomingMessage, ServerResponse } from 'node:http';
import { contract, ERROR_MESSAGES } from '@mindservice/contract';
import express from 'express';
import pino, { type Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import { accountsArea } from './accounts/handlers.js';
import { userExists } from './accounts/store.js';
import type { Area } from './core/area.js';
import { chatArea } from './chat/handlers.js';
import { type ComputersArea, computersArea } from './computers/handlers.js';
import { findComputerByTokenHash } from './computers/store.js';
import type { Config } from './lib/config.js';
import type { AppContext } from './core/context.js';
import { dialectFor, migrateLatest } from './db/database.js';
import { EventRecorder } from './events/recorder.js';
import { createAuthenticator } from './http/auth.js';
import { ApiError } from './http/api-error.js';
import { errorResponder, routeNotFound } from './http/errors.js';
import { corsFor, isValidHost, setApiHeaders, setDocsHeaders } from './http/headers.js';
import { createPipeline } from './http/pipeline.js';
import { DatabaseRateLimiter, MemoryRateLimiter } from './http/rate-limit.js';
import type { RawRequest } from './http/request.js';
import { requestLog } from './http/request-log.js';
import type { RouterImpl } from './http/types.js';
import { type Clock, systemClock } from './lib/clock.js';
import { loadOrCreateKeyFile } from './lib/keyfile.js';
import { loadOrCreateServiceSecret } from './db/service-secret.js';
import { isMcpPath } from './mcp/path.js';
import { Meaning } from './meaning/service.js';
import { Cipher } from './lib/cipher.js';
import { memoriesArea } from './memories/handlers.js';
import { migrations } from './migrations.js';
import { MemoriesStore } from './memories/store.js';
import { oauthEndpoint } from './oauth/handlers.js';
import { mcpChallenge } from './oauth/metadata.js';
import { recallArea } from './recall/handlers.js';
import { mindsArea } from './minds/handlers.js';
import { touchKey } from './minds/keys-store.js';
import { findKeyHolder, findKeyHoldersPostgres } from './minds/store.js';
import { LookupBatcher } from './lib/lookup-batcher.js';
import { scriptsArea } from './mind-scripts/handlers.js';
import { consoleRouter, isConsolePath } from './system/console.js';
import { docsRouter, isDocsPath } from './system/docs.js';
import { downloadsRouter, isDownloadsPath } from './system/downloads.js';
import { systemArea } from './system/handlers.js';
import { tasksArea } from './tasks/handlers.js';
import { transferArea } from './transfer/handlers.js';
import { webhooksArea } from './webhooks/handlers.js';

/**
 * Key lookup statements running at once on PostgreSQL; the lookups that arrive meanwhile go together
 * in the next (2 measured no better than 1: docs/performance.md).
 */
const KEY_LOOKUPS_AT_ONCE = 1;

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
}

export interface MindApp {
  /** The request listener: hand it to http.createServer (serve.ts) or to supertest. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  ctx: AppContext;
  /** The computers area, for tests that run its sweeper by hand. */
  computers: ComputersArea;
  /** Starts a graceful shutdown: new requests get 503, waiting long-polls end; in-flight work goes on. */
  drain(): Promise<void>;
  /** Requests being answered right now. */
  inFlight(): number;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
}

/** Builds the service (database migrated, workers started) without listening. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<MindApp> {
  const log = options.logger ?? pino({ level: config.logLevel, base: undefined });
  const clock = options.clock ?? systemClock;
  const dialect = dialectFor(config);
  const db = dialect.open(config);
  const closers: Array<() => Promise<void> | void> = [() => db.destroy()];
  let inFlight = 0;
  try {
    const applied = await migrateLatest(db, migrations);
    if (applied.length) log.info({ migrations: applied }, 'migrations applied');
  } catch (err) {
    await db.destroy();
    throw err;
  }

  if (dialect.sharedByInstances && !config.encryptionKey) {
    // Instances sharing PostgreSQL must agree on the key; without MIND_ENCRYPTION_KEY it lives in the database.
    config = { ...config, encryptionKey: await loadOrCreateServiceSecret(db, 'encryption-key') };
    log.warn(
      'MIND_ENCRYPTION_KEY is not set: the encryption key is kept in the database, so a dump of the database alone reveals encrypted data. Set it in production.',
    );
  }

  const ctx: AppContext = {
    config,
    db,
    dialect,
    log,
    clock,
    events: new EventRecorder(clock),
    jwtSecret:
      config.jwtSecret ??
      (dialect.sharedByInstances ? await loadOrCreateServiceSecret(db, 'jwt-secret') : loadOrCreateKeyFile(config.dataDir, 'jwt-secret')),
    // One process on SQLite keeps the windows in memory; instances sharing PostgreSQL share them there.
    keyRateLimiter: dialect.sharedByInstances ? new DatabaseRateLimiter(db, clock) : new MemoryRateLimiter(clock),
    startedAt: Date.now(),
    state: 'starting',
    onClose: (fn) => closers.push(fn),
  };

  const memoryStore = new MemoriesStore(Cipher.fromConfig(ctx.config));
  // Embeddings: memories, recall and chat search ask it, /health reports it; it has no routes of its own.
  const meaning = new Meaning(ctx);
  const areas = {
    system: systemArea(ctx, meaning),
    accounts: accountsArea(ctx),
    minds: mindsArea(ctx),
    tasks: tasksArea(ctx),
    meaning: { handlers: {}, start: () => meaning.start(), stop: () => meaning.stop() },
    memories: memoriesArea(ctx, memoryStore, meaning),
    // Recall asks memories' keyword index and meaning's vectors, and fuses them.
    recall: recallArea(ctx, memoryStore, meaning),
    chat: chatArea(ctx, meaning),
    scripts: scriptsArea(ctx),
    // The mind export and import: over the rows of memories, tasks, chat and scripts, through their stores.
    transfer: transferArea(ctx, memoryStore),
    webhooks: webhooksArea(ctx),
    computers: computersArea(ctx),
  };
  const started: Area<never>[] = [];
  closers.push(async () => {
    for (const area of started.reverse().splice(0)) await area.stop?.();
  });

  // Express serves what is not a contract route: the console, the guides, the OpenAPI document, and 404s.
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  const docs = docsRouter();
  app.use((req, res, next) => (isDocsPath(req.path) ? docs(req, res, next) : next()));
  const consolePage = consoleRouter();
  app.use((req, res, next) => (isConsolePath(req.path) ? consolePage(req, res, next) : next()));
  const downloads = downloadsRouter();
  app.use((req, res, next) => (isDownloadsPath(req.path) ? downloads(req, res, next) : next()));
  const unexpected = (err: unknown, req: RawRequest) => log.error({ req_id: req.requestId, err }, 'unexpected error');
  // Everything that goes wrong ends as the error object, `docs` under the public URL.
  const errors = errorResponder(config.publicUrl, unexpected);
  app.use((req: express.Request, res: express.Response) => errors.send(res, routeNotFound(req.method, req.path)));
  app.use((err: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => errors.answer(err, req, res));

  const ipOf = (req: RawRequest) => proxyAddr(req, app.get('trust proxy fn'));
  const logRequest = requestLog(log, ipOf, () => ctx.state === 'draining');
  // The contract's groups of routes; its `memories` group is served by three areas.
  const handlers: RouterImpl<typeof contract> = {
    system: areas.system.handlers,
    accounts: areas.accounts.handlers,
    minds: areas.minds.handlers,
    tasks: areas.tasks.handlers,
    memories: {
      ...areas.memories.handlers,
      ...areas.recall.handlers,
      ...areas.transfer.handlers,
    },
    chat: areas.chat.handlers,
    scripts: areas.scripts.handlers,
    webhooks: areas.webhooks.handlers,
    computers: areas.computers.handlers,
  };
  // Every Mind Key request looks its key up first. On SQLite that is a call in process; on
  // PostgreSQL a round trip, so the lookups of concurrent requests share statements (measured in
  // docs/performance.md).
  const mindKeyLookups = dialect.inProcess
    ? undefined
    : new LookupBatcher((hashes: string[]) => findKeyHoldersPostgres(db, hashes), KEY_LOOKUPS_AT_ONCE);
  // The authenticator checks credentials; the stores of the areas that issue them say whom they name.
  const authenticator = createAuthenticator(ctx, {
    mindByKeyHash: mindKeyLookups ? (keyHash) => mindKeyLookups.get(keyHash) : (keyHash) => findKeyHolder(db, keyHash),
    keyUsed: (keyId, now, since) => touchKey(db, keyId, now, since),
    computerByTokenHash: (tokenHash) => findComputerByTokenHash(db, tokenHash),
    userExists: (userId) => userExists(db, userId),
  });
  const route = createPipeline(contract, handlers, authenticator, {
    validateResponses: config.validateResponses,
    ipOf,
    errors,
  });
  // The same routes as MCP tools, at /mcp (docs/mcp.md). The MCP SDK and the tools are loaded
  // with the first /mcp request: about 30 MB of RSS a server that is never asked over MCP does not carry.
  let mcp: Promise<ReturnType<typeof import('./mcp/endpoint.js').mcpEndpoint>> | undefined;
  const loadMcp = () =>
    (mcp ??= import('./mcp/endpoint.js')
      .then(({ mcpEndpoint }) =>
        mcpEndpoint(ctx, {
          authenticator,
          invoke: route.invoke,
          ipOf,
          onUnexpected: unexpected,
          challenge: (presented) => mcpChallenge(config.publicUrl, presented),
        }),
      )
      .catch((err: unknown) => {
        mcp = undefined; // the next /mcp request tries again
        throw err;
      }));
  // OAuth 2.1 for hosted assistants' connectors: metadata, registration, tokens, the consent page's calls.
  const oauth = oauthEndpoint(ctx, { authenticator, errors, ipOf });
  const answerCors = corsFor(config.corsOrigins);
  const handle = (req: RawRequest, res: ServerResponse) => {
    logRequest(req, res);
    inFlight++;
    res.once('close', () => inFlight--);
    setApiHeaders(res);
    // A preflight a listed origin sends is answered in headers.ts: with the path's methods too.
    if (req.method === 'OPTIONS' && !isMcpPath(req.url)) {
      const allow = route.allowedMethods(req);
      if (allow.length > 0) res.setHeader('Allow', allow.join(', '));
    }
    if (!isValidHost(req.headers.host)) {
      res.setHeader('Connection', 'close');
      return errors.send(
        res,
        ApiError.of(400, 'host_invalid', ERROR_MESSAGES.hostInvalid, {
          details: [{ path: 'headers.host', message: 'is not host[:port]' }],
        }),
      );
    }
    if (answerCors(req, res)) return;
    if (ctx.state === 'draining' && req.url?.split('?')[0] !== '/health') {
      res.setHeader('Connection', 'close');
      return errors.send(res, ApiError.of(503, 'shutting_down', ERROR_MESSAGES.shuttingDown, { headers: { 'Retry-After': '5' } }));
    }
    if (oauth(req, res)) return;
    if (isMcpPath(req.url)) {
      const onError = (err: unknown) => errors.answer(err, req, res);
      return void loadMcp().then((serveMcp) => serveMcp(req, res, onError), onError);
    }
    const serve = route(req);
    if (serve) return serve(res);
    setDocsHeaders(res);
    app(req, res);
  };

  try {
    for (const area of Object.values(areas) as Area<never>[]) {
      started.push(area);
      await area.start?.();
    }
  } catch (err) {
    for (const fn of closers.reverse().splice(0)) await fn();
    throw err;
  }
  // Started last, so that a start that fails leaves no thread behind.
  const stopHousekeeping = dialect.startHousekeeping(config, log);
  if (stopHousekeeping) closers.push(stopHousekeeping);
  ctx.state = 'ready';
  let closed: Promise<void> | undefined;
  return {
    app: handle,
    ctx,
    computers: areas.computers,
    inFlight: () => inFlight,
    async drain() {
      ctx.state = 'draining';
      for (const area of Object.values(areas) as Area<never>[]) await area.drain?.();
    },
    close: () =>
      (closed ??= (async () => {
        for (const fn of closers.reverse().splice(0)) await fn();
      })()),
  };
}
