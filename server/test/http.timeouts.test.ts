// A client that sends its request a few bytes a second is cut off (issue 28, finding 8): Node's
// default request timeout held such a request with a valid key open for 300 s. Only receiving the
// request counts: a long-poll that waits longer than the timeout still gets its answer.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/lib/config.js';
import { CONNECTIONS_CHECK_MS } from '../src/serve.js';
import { freshPostgresSchema, TEST_DATABASE_URL } from './harness.js';
import { callServer, type ServerProcess, startServerProcess } from './server-process.js';

const REQUEST_TIMEOUT_S = 3;
const HEADERS_TIMEOUT_S = 2;

/**
 * Sends `head` at once, then `drip` one byte every 200 ms; resolves when the server closes the
 * connection (with how long that took and what it answered), or after `giveUpMs`.
 */
function slowRequest(url: string, head: string, drip: string, giveUpMs: number): Promise<{ ms: number; answer: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ms: Date.now() - started, answer, closed });
    };
    const giveUp = setTimeout(() => done(false), giveUpMs);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined); // a reset is a close too
    socket.on('close', () => done(true));
    socket.on('connect', () => {
      socket.write(head);
      timer = setInterval(() => {
        if (!socket.writable) return;
        socket.write(drip[sent++ % drip.length]!);
      }, 200);
    });
  });
}

describe('HTTP timeouts (a real server process)', () => {
  let server: ServerProcess;
  let dataDir: string;
  let dropSchema = async () => {};
  let mindKey: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'mind-timeouts-'));
    const env: Record<string, string> = {
      MIND_DATA_DIR: dataDir,
      MIND_REQUEST_TIMEOUT: `${REQUEST_TIMEOUT_S}s`,
      MIND_HEADERS_TIMEOUT: `${HEADERS_TIMEOUT_S}s`,
    };
    if (TEST_DATABASE_URL) {
      const schema = await freshPostgresSchema(TEST_DATABASE_URL);
      dropSchema = schema.drop;
      env.DATABASE_URL = schema.url;
    }
    server = await startServerProcess(env);
    const { jwt } = await callServer(server.url, 'POST', '/register', null, { email: 'slow@example.com', password: 'correct horse' });
    mindKey = (await callServer(server.url, 'POST', '/minds', jwt, { name: 'slow' })).mind_key;
  });
  after(async () => {
    await server?.stop();
    await dropSchema();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a body sent a few bytes a second with a valid key is cut after MIND_REQUEST_TIMEOUT', async () => {
    const head =
      'POST /memory HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      `Authorization: Bearer ${mindKey}\r\nContent-Length: 100000\r\n\r\n{"category":"fact","content":"`;
    const res = await slowRequest(server.url, head, 'slow ', 20_000);
    assert.ok(res.closed, `the connection was still open after ${res.ms} ms`);
    // The timeout, Node's check interval, and a margin for a loaded machine.
    assert.ok(res.ms < REQUEST_TIMEOUT_S * 1000 + CONNECTIONS_CHECK_MS + 4000, `cut after ${res.ms} ms`);
    assert.ok(res.ms >= REQUEST_TIMEOUT_S * 1000 - 500, `cut too early, after ${res.ms} ms`);
    assert.match(res.answer, /^HTTP\/1\.1 408/);
    await callServer(server.url, 'GET', '/health', null); // the server is fine
  });

  test('headers sent a few bytes a second are cut after MIND_HEADERS_TIMEOUT', async () => {
    const res = await slowRequest(server.url, 'GET /health HTTP/1.1\r\nHost: localhost\r\n', 'X-Slow: aaaaaaaaaa\r\n', 20_000);
    assert.ok(res.closed, `the connection was still open after ${res.ms} ms`);
    assert.ok(res.ms < HEADERS_TIMEOUT_S * 1000 + CONNECTIONS_CHECK_MS + 4000, `cut after ${res.ms} ms`);
  });

  test('a long-poll that waits longer than the request timeout still gets its answer', async () => {
    const { install_code: code } = await callServer(server.url, 'POST', '/computers/install-code', mindKey, {});
    const computer = await callServer(server.url, 'POST', '/computers/register', null, {
      code,
      computer_name: 'poller',
      platform: 'linux',
      platform_release: '6.1.0',
      python: '3.12',
    });
    const wait = REQUEST_TIMEOUT_S + CONNECTIONS_CHECK_MS / 1000 + 2;
    const started = Date.now();
    const polled = await callServer(server.url, 'GET', `/computers/me/poll?wait=${wait}`, computer.computer_token);
    assert.ok(Date.now() - started >= (wait - 0.5) * 1000, 'it waited its whole wait');
    assert.deepEqual(polled.commands, []);
  });
});

test('by default a slow request is cut within 30 s, headers within the request timeout', () => {
  const config = loadConfig({});
  assert.ok(config.requestTimeoutMs + CONNECTIONS_CHECK_MS <= 30_000, `MIND_REQUEST_TIMEOUT default ${config.requestTimeoutMs} ms`);
  assert.ok(config.headersTimeoutMs <= config.requestTimeoutMs);
  assert.throws(() => loadConfig({ MIND_REQUEST_TIMEOUT: '5s', MIND_HEADERS_TIMEOUT: '10s' }), /MIND_HEADERS_TIMEOUT/);
});
