import assert from 'node:assert/strict';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { bearer, useService } from './harness.js';

// The import's body is parsed in pieces (json-in-pieces.ts); from outside it must read as every
// other JSON body does: the same errors with the same messages, gzip, charsets, the body limit.

const at = '2026-11-01T00:00:00.000Z';
const document = (contents: string[]) => ({
  format: 'mind-export/1',
  exported_at: at,
  memories: contents.map((content, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    category: 'note',
    key: null,
    content,
    tags: ['imported'],
    source: null,
    created_at: at,
    updated_at: at,
  })),
  tasks: [],
  chat: [],
  scripts: [],
  webhooks: [],
});

describe('transfer: the import reads its body as every route does', () => {
  const svc = useService();

  /** POSTs bytes exactly as given (supertest would serialise a Buffer sent as JSON). */
  async function postBytes(path: string, headers: Record<string, string>, body: Buffer) {
    const server = createServer(svc.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'Content-Length': String(body.length) } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  /** The same bytes to the import and to POST /mind/task: both answers. */
  async function bothRoutes(mindKey: string, body: string | Buffer, headers: Record<string, string> = {}) {
    const send = (path: string) =>
      svc.http
        .post(path)
        .set({ ...bearer(mindKey), 'Content-Type': 'application/json', ...headers })
        .send(body);
    return { imported: await send('/memory/mind-import?dry_run=true'), task: await send('/mind/task') };
  }

  test('broken JSON, and JSON that is no object or array: the same 400 and message as on any route', async () => {
    const { mindKey } = await svc.mind();
    const broken = [
      '{"format": ',
      '{"format":"mind-export/1",}',
      '{"memories":[{"id":1},]}',
      '{"memories":[1 2]}',
      '{"a":1} trailing',
      '"a string"',
      '42',
      '   ',
      `{"memories":[${'{"content":"padding"},'.repeat(5000)}{"content":"unterminated}]}`,
    ];
    for (const body of broken) {
      const { imported, task } = await bothRoutes(mindKey, body);
      assert.equal(imported.status, 400, body.slice(0, 60));
      assert.equal(imported.body.code, 'json_invalid', body.slice(0, 60));
      assert.equal(imported.body.message, task.body.message, body.slice(0, 60));
    }
  });

  test('a document read in pieces imports what it says: escapes, unicode and a key named __proto__ as JSON.parse reads them', async () => {
    const { mindKey } = await svc.mind();
    const contents = [
      'quote " backslash \\ brackets ]}[{',
      'ünïcödé ✓ 😀',
      'line\nbreak\ttab',
      ...Array.from({ length: 1500 }, (_, i) => `m ${i}`),
    ];
    const text = JSON.stringify({ __proto__: null, ...document(contents) }).replace('{', '{"__proto__":{"ignored":true},');
    const res = await svc.http
      .post('/memory/mind-import')
      .set({ ...bearer(mindKey), 'Content-Type': 'application/json; charset=utf-8' })
      .send(text);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.created.memories, contents.length);
    const exported = await svc.http.get('/memory/mind-export').set(bearer(mindKey)).expect(200);
    const stored = exported.body.memories.map((m: { content: string }) => m.content).sort();
    assert.deepEqual(stored, [...contents].sort());
  });

  test('gzip is read; a charset other than UTF-8 is the same 415; more than the limit the same 413', async () => {
    const { mindKey } = await svc.mind();
    const zipped = gzipSync(Buffer.from(JSON.stringify(document(['zipped one', 'zipped two']))));
    const res = await postBytes(
      '/memory/mind-import?dry_run=true',
      { ...bearer(mindKey), 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      zipped,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.created, { memories: 2, tasks: 0, chat: 0, scripts: 0, webhooks: 0 });

    const latin = await bothRoutes(mindKey, JSON.stringify(document(['x'])), { 'Content-Type': 'application/json; charset=latin1' });
    assert.equal(latin.imported.status, 415);
    assert.equal(latin.imported.body.message, latin.task.body.message);

    const tooLarge = `{"memories":[],"pad":"${' '.repeat(25 * 1024 * 1024)}"}`;
    const big = await svc.http
      .post('/memory/mind-import?dry_run=true')
      .set({ ...bearer(mindKey), 'Content-Type': 'application/json' })
      .send(tooLarge);
    assert.equal(big.status, 413);
    assert.equal(big.body.code, 'body_too_large');
  });
});
