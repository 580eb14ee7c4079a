// MindSession (@mindservice/sdk/openai-agents) answers what @openai/agents-core's MemorySession
// answers, call for call, compared as JSON, on a live service (SQLite, then PostgreSQL). It lives with
// the examples: agents-core needs zod 4, and this package, not the SDK (zod 3), has it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MindClient } from '@mindservice/sdk';
import { MindSession } from '@mindservice/sdk/openai-agents';
import { type AgentInputItem, MemorySession } from '@openai/agents-core';
import { startService, type TestService } from '../../server/test/harness.js';

function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (below: number) => Math.floor(next() * below) };
}

const WORDS = ['hello', 'the budget', 'café ☕', '日本語', '"quoted"', '', 'line\nbreak', '{"not":"an item"}'];

/** An item of each kind a run stores: the user's words, the model's, a tool call and its result, a system note. */
function item(r: ReturnType<typeof seeded>, n: number): AgentInputItem {
  const text = `${WORDS[r.int(WORDS.length)]} #${n}`;
  switch (r.int(5)) {
    case 0:
      return { role: 'user', content: text };
    case 1:
      return { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
    case 2:
      return { type: 'function_call', callId: `call_${n}`, name: 'lookup', arguments: JSON.stringify({ q: text }) };
    case 3:
      return { type: 'function_call_result', callId: `call_${n}`, name: 'lookup', status: 'completed', output: { type: 'text', text } };
    default:
      return { role: 'system', content: text };
  }
}

describe('openai-agents: MindSession answers as MemorySession', () => {
  let service: TestService;
  let server: Server;
  let baseUrl: string;
  before(async () => {
    service = await startService();
    server = createServer(service.app).listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    await service.stop();
  });

  /** A mind's client; `requests` records each request's method and URL. */
  async function client() {
    const { mindKey } = await service.mind();
    const requests: string[] = [];
    const fetcher: typeof fetch = (input, init) => {
      requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    };
    return { client: new MindClient({ baseUrl, mindKey, fetch: fetcher }), requests, mindKey };
  }

  it('a scripted sequence of every call, on an empty session and at the edges, answers the same', async () => {
    const { client: mind } = await client();
    const reference = new MemorySession({ sessionId: 'scripted' });
    const session = new MindSession({ client: mind, sessionId: 'scripted' });
    const r = seeded(7);
    const kinds = Array.from({ length: 5 }, (_, n) => item(r, n));
    const script: Array<[string, (s: MemorySession | MindSession) => Promise<unknown>]> = [
      ['getSessionId()', (s) => s.getSessionId()],
      ['getItems() of nothing', (s) => s.getItems()],
      ['getItems(0) of nothing', (s) => s.getItems(0)],
      ['popItem() of nothing', (s) => s.popItem()],
      ['clearSession() of nothing', (s) => s.clearSession()],
      ['addItems([])', (s) => s.addItems([])],
      ['addItems(one of each kind)', (s) => s.addItems(kinds)],
      ['getItems()', (s) => s.getItems()],
      ['getItems(1)', (s) => s.getItems(1)],
      ['getItems(0)', (s) => s.getItems(0)],
      ['getItems(-2)', (s) => s.getItems(-2)],
      ['getItems(99)', (s) => s.getItems(99)],
      ['popItem()', (s) => s.popItem()],
      ['getItems(2)', (s) => s.getItems(2)],
      ['addItems(again)', (s) => s.addItems(kinds.slice(0, 2))],
      ['getItems()', (s) => s.getItems()],
      ['clearSession()', (s) => s.clearSession()],
      ['getItems() after clear', (s) => s.getItems()],
      ['popItem() after clear', (s) => s.popItem()],
    ];
    for (const [call, run] of script) {
      const expected = JSON.stringify(await run(reference));
      assert.equal(JSON.stringify(await run(session)), expected, call);
    }
  });

  it('a seeded random sequence of 300 calls answers the same, and the items are the thread of GET /mind/chat', async () => {
    const { client: mind, mindKey } = await client();
    const reference = new MemorySession({ sessionId: 'session-1' });
    const session = new MindSession({ client: mind, sessionId: 'session-1' });
    const r = seeded(Number(process.env.SESSION_SEED ?? 50));
    let n = 0;
    const calls: Record<string, number> = {};
    for (let step = 0; step < 300; step++) {
      const roll = r.next();
      let call: string;
      let both: [unknown, unknown];
      if (step === 150 || roll < 0.35) {
        const items = Array.from({ length: step === 150 ? 130 : r.int(4) }, () => item(r, n++));
        call = `addItems(${items.length})`;
        both = [await reference.addItems(items), await session.addItems(items)];
      } else if (roll < 0.65) {
        const limit = [undefined, 0, -1, 1, 2, 3, 5, 101, 1000][r.int(9)];
        call = `getItems(${limit})`;
        both = [await reference.getItems(limit), await session.getItems(limit)];
      } else if (roll < 0.9) {
        call = 'popItem()';
        both = [await reference.popItem(), await session.popItem()];
      } else if (roll < 0.96) {
        call = 'clearSession()';
        both = [await reference.clearSession(), await session.clearSession()];
      } else {
        call = 'getSessionId()';
        both = [await reference.getSessionId(), await session.getSessionId()];
      }
      calls[call.replace(/\(.*/, '')] = (calls[call.replace(/\(.*/, '')] ?? 0) + 1;
      assert.equal(JSON.stringify(both[1]), JSON.stringify(both[0]), `step ${step}: ${call}`);
    }
    assert.ok(Object.keys(calls).length === 5, JSON.stringify(calls));
    // The session is the mind's chat thread named by its id: one message per item, holding its JSON.
    const items = await reference.getItems();
    const listed = await fetch(`${baseUrl}/mind/chat?thread=session-1&limit=100`, { headers: { Authorization: `Bearer ${mindKey}` } });
    const { messages } = (await listed.json()) as { messages: Array<{ content: string; role: string }> };
    assert.deepEqual(
      messages.map((m) => JSON.parse(m.content)),
      JSON.parse(JSON.stringify(items.slice(-100))),
    );
    assert.deepEqual(
      messages.map((m) => m.role),
      items.slice(-100).map((it) => ('role' in it && it.role === 'user' ? 'human' : 'agent')),
    );
  });

  it('getItems(limit) reads only what it returns; popItem and clearSession delete', async () => {
    const { client: mind, requests } = await client();
    const session = new MindSession({ client: mind, sessionId: 'limits' });
    await session.addItems(Array.from({ length: 250 }, (_, i) => ({ role: 'user' as const, content: `m${i}` })));
    requests.length = 0;
    assert.deepEqual(
      (await session.getItems(3)).map((i) => ('content' in i ? i.content : '')),
      ['m247', 'm248', 'm249'],
    );
    assert.deepEqual(requests, [`GET ${baseUrl}/mind/chat?thread=limits&limit=3`]);
    requests.length = 0;
    assert.equal((await session.getItems(120)).length, 120);
    assert.equal(requests.length, 2, requests.join('\n'));
    assert.ok(requests[1]!.endsWith('limit=20') || requests[1]!.includes('limit=20&'), requests[1]);
    assert.equal((await session.getItems()).length, 250);
    assert.deepEqual(await session.popItem(), { role: 'user', content: 'm249' });
    await session.clearSession();
    assert.deepEqual(await session.getItems(), []);
    assert.equal(await session.popItem(), undefined);
  });

  it('two sessions of one thread popping at once each get a different item', async () => {
    const { client: mind } = await client();
    const one = new MindSession({ client: mind, sessionId: 'shared' });
    const two = new MindSession({ client: mind.withOptions({}), sessionId: 'shared' });
    await one.addItems(Array.from({ length: 10 }, (_, i) => ({ role: 'user' as const, content: `p${i}` })));
    const popped = await Promise.all([...Array(5)].flatMap(() => [one.popItem(), two.popItem()]));
    const contents = popped.map((i) => (i && 'content' in i ? i.content : undefined)).sort();
    assert.deepEqual(contents, [...Array(10)].map((_, i) => `p${i}`).sort());
    assert.deepEqual(await one.getItems(), []);
  });
});
