// A real Mind Service on a fresh SQLite file, listening on a free port, for the SDK to talk to over HTTP.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startService, type TestService } from '../../server/test/harness.js';
import { MindClient } from '../src/index.js';

export interface LiveServer {
  baseUrl: string;
  service: TestService;
  /** A client with no credential. */
  client: MindClient;
  /** A new account with one mind: a client holding both its JWT and its Mind Key. */
  account(): Promise<{ client: MindClient; jwt: string; mindKey: string; mindId: string; email: string }>;
  stop(): Promise<void>;
}

export async function startLiveServer(env: Record<string, string> = {}): Promise<LiveServer> {
  const service = await startService(env);
  const server = createServer(service.app).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Fast retries so that a test never waits the production backoff.
  const client = new MindClient({ baseUrl, retryBackoff: { initialDelayMs: 5, maxDelayMs: 20 } });
  let n = 0;
  return {
    baseUrl,
    service,
    client,
    async account() {
      const email = `sdk${++n}-${Date.now()}@example.com`;
      const { jwt } = await client.accounts.register({ email, password: 'correct horse' });
      const mind = await client.withOptions({ jwt }).minds.create({ name: 'sdk test mind' });
      return { client: client.withOptions({ jwt, mindKey: mind.mind_key }), jwt, mindKey: mind.mind_key, mindId: mind.id, email };
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.stop();
    },
  };
}
