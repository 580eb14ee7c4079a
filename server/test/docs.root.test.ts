// GET / is the address the server prints at start: it leads to the guides rather than a 404 (issue 30, point 8).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type TestService, startService } from './harness.js';

describe('docs: the root', () => {
  let svc: TestService;
  let server: Server;
  let base: string;
  before(async () => {
    svc = await startService();
    server = createServer(svc.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await svc?.stop();
  });

  test('GET / redirects to /docs, and the guides answer there', async () => {
    const res = await fetch(`${base}/`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/docs');
    const followed = await fetch(`${base}/`);
    assert.equal(followed.status, 200);
    assert.equal(new URL(followed.url).pathname, '/docs');
    assert.match(followed.headers.get('content-type') ?? '', /^text\/html/);
  });

  test('HEAD / redirects too, without a body', async () => {
    const res = await fetch(`${base}/`, { method: 'HEAD', redirect: 'manual' });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get('location'), '/docs');
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  test('other methods on / stay a 404 in the spec form', async () => {
    const res = await fetch(`${base}/`, { method: 'POST', redirect: 'manual' });
    assert.equal(res.status, 404);
    assert.equal(res.headers.get('location'), null);
  });
});
