import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pino from 'pino';
import { createApp } from './app.js';
import { type Config, withListeningPort } from './lib/config.js';
import { StartupError } from './db/sqlite-driver.js';
import { API_VERSION } from '@mindservice/contract/openapi';

/** Answers while migrations run: /health says `starting`, everything else 503 with Retry-After. */
function startingHandler(startedAt: number) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const health = req.url === '/health' || req.url?.startsWith('/health?');
    const body = health
      ? { status: 'starting', version: API_VERSION, uptime_s: Math.floor((Date.now() - startedAt) / 1000), database: 'ok' }
      : {
          statusCode: 503,
          error: 'Service Unavailable',
          message: 'The service is starting (migrations are running). Retry in a few seconds.',
        };
    res.writeHead(503, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '2' });
    res.end(JSON.stringify(body));
  };
}

/** How often Node looks for requests past MIND_HEADERS_TIMEOUT / MIND_REQUEST_TIMEOUT. */
export const CONNECTIONS_CHECK_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Listens at once (503 while starting), builds the service, then serves it. On SIGTERM or SIGINT it
 * drains: new requests get 503, long-polls end at once with an empty answer, in-flight requests and
 * webhook attempts finish (up to the shutdown timeout), the database closes, and the process exits 0.
 */
export async function serve(config: Config): Promise<void> {
  const log = pino({ level: config.logLevel, base: undefined });
  const startedAt = Date.now();
  const starting = startingHandler(startedAt);
  // URL-only tools put whole task descriptions (up to 20,000 characters) in the query string.
  const server = createServer(
    {
      maxHeaderSize: 256 * 1024,
      // Only receiving the request counts: once it is read, the answer may take as long as it needs
      // (a long-poll waits up to 60 s). Node checks every CONNECTIONS_CHECK_MS, so a slow client is
      // cut within the timeout plus that (Node's default check, every 30 s, would double it).
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: CONNECTIONS_CHECK_MS,
    },
    starting,
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const url = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
  // With PORT=0 the port is known only now; the webhook rules compare targets with it.
  config = withListeningPort(config, typeof address === 'object' && address ? address.port : config.port);

  let service: Awaited<ReturnType<typeof createApp>>;
  try {
    service = await createApp(config, { logger: log });
  } catch (err) {
    if (err instanceof StartupError) console.error(`mind-service: ${err.message}`);
    else log.fatal({ err }, 'cannot start');
    server.close();
    process.exitCode = 1;
    return;
  }
  server.removeListener('request', starting);
  server.on('request', service.app);
  log.info({ url, database: service.ctx.dialect.describe(config) }, 'Mind Service listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Draining: /health says so and new requests get 503 with Retry-After (a load balancer moves
    // traffic elsewhere) while requests already running finish, up to MIND_SHUTDOWN_TIMEOUT.
    log.info({ signal }, 'draining');
    await service.drain();
    const deadline = Date.now() + config.shutdownTimeoutMs;
    while (service.inFlight() > 0 && Date.now() < deadline) await sleep(25);
    if (service.inFlight() > 0) log.warn({ inFlight: service.inFlight() }, 'shutdown timeout: closing the remaining connections');
    server.close();
    server.closeAllConnections();
    await service.close(); // webhook attempts in flight finish (up to the same timeout), then the database closes
    log.info('stopped');
    process.exit(0);
  };
  const onSignal = (signal: string) => {
    stop(signal).catch((err) => {
      log.error({ err }, 'error while stopping');
      process.exit(1);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
