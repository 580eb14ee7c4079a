// requestGone: a request's work for the embedder is dropped when its client goes away, never when it was answered.
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { requestGone } from '../src/http/request-gone.js';

test('the signal aborts when the client goes away before the answer, and not after an answer', async () => {
  const signals: AbortSignal[] = [];
  const server = createServer((_req, res) => {
    signals.push(requestGone(res));
    // The first request is never answered (its client leaves); the second is answered at once.
    if (signals.length === 2) res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    const gone = request({ port, host: '127.0.0.1', path: '/' });
    gone.on('error', () => undefined);
    gone.end();
    while (signals.length < 1) await new Promise((r) => setTimeout(r, 5));
    gone.destroy();
    while (!signals[0]!.aborted) await new Promise((r) => setTimeout(r, 5));
    const answered = await fetch(`http://127.0.0.1:${port}/`);
    assert.equal(await answered.text(), 'ok');
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(signals[0]!.aborted, true);
    assert.equal(signals[1]!.aborted, false);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});
