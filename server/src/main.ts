import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const service = await createApp(config);
  const { log } = service.ctx;
  const server = service.app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    log.info({ url: `http://${config.host}:${port}`, database: config.databaseUrl ? 'postgresql' : `sqlite in ${config.dataDir}` }, 'Mind Service listening');
  });
  server.on('error', (err) => {
    log.fatal({ err }, 'cannot listen');
    void service.close().finally(() => process.exit(1));
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    server.close();
    server.closeIdleConnections();
    void service.close().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err) => {
  console.error('Mind Service failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
