// Fuzz of JSON-RPC batches on /mcp (the operations' fuzz of the REST routes is fuzz.test.ts): seeded
// random arrays of calls (known and unknown tools, random arguments and ids, notifications, posted
// responses, junk), nested and empty arrays, huge counts, under every revision header. Asserts: never
// a 5xx or an internal error; refused whole (400) under the revisions without batches; otherwise one
// JSON-RPC answer per request at most, each with an id that was sent, the whole answer under the bound.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { registerComputer } from './computers/helpers.js';
import { useService } from './harness.js';
import { postMcp } from './mcp/batches.js';
import { useMcpUrl } from './mcp/clients.js';

const LIMIT = 64 * 1024;
const BATCHES = 150;
const REVISIONS = [undefined, '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28', 'not-a-revision'];
const TOOLS = ['list_tasks', 'create_task', 'get_script', 'list_scripts', 'recall_memories', 'queue_command', 'screenshot', 'no_such_tool'];

/** A small seeded generator (mulberry32): the same batches every run. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('fuzz: JSON-RPC batches on /mcp', () => {
  const svc = useService({ MIND_MCP_MAX_ANSWER_BYTES: String(LIMIT), MIND_MCP_BATCH_WAIT: '1s', MIND_SCREENSHOT_WAIT: '1s' });
  const mcpUrl = useMcpUrl(svc);

  test(`${BATCHES} random batches: no 5xx, refused where batches are not part of the revision, bounded answers`, async (t) => {
    const mind = await svc.mind();
    const { computerId } = await registerComputer(svc, mind.mindKey);
    const scripts: string[] = [];
    for (const size of [100, 40_000, 60_000]) {
      const body = { name: `script ${size}`, content: 's'.repeat(size) };
      scripts.push((await svc.http.post('/mind/scripts').set(mind.auth).send(body).expect(201)).body.id);
    }
    const random = rng(44);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const junk = (): unknown => pick([null, 0, -1, 1.5, '', 'x', true, [], {}, [[]], { jsonrpc: '2.0' }, 'mk_not_a_key']);
    const args = (tool: string): unknown => {
      if (random() < 0.15) return junk();
      const pool: Record<string, unknown> = {
        script_id: pick([...scripts, ...scripts, 'nope', 7]),
        computer_id: pick([computerId, 'nope', 7]),
        title: pick(['fuzz', '', 5]),
        limit: pick([1, 100, 0, 'x']),
        q: pick(['fuzz', '', 3]),
        wait: pick([0, 1, 30, 31, -1, 'x']),
        wait_ms: pick([0, 2000, 5000]),
        type: pick(['move', 'click', 'nope']),
        payload: pick([{ x: 1, y: 1 }, {}, null]),
      };
      const keys = Object.keys(pool).filter(() => random() < (tool === 'no_such_tool' ? 0.2 : 0.4));
      return Object.fromEntries(keys.map((key) => [key, pool[key]]));
    };
    // A clean batch holds well-formed messages only (it runs); a dirty one may hold anything (refused whole).
    let clean = true;
    const message = (n: number): unknown => {
      const roll = random() * (clean ? 0.82 : 1);
      const id = clean ? pick([n, `id-${n}`]) : pick([n, `id-${n}`, n + 0.5, null, { n }]);
      if (roll < 0.6) return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: pick(TOOLS), arguments: args('') } };
      if (roll < 0.68) return { jsonrpc: '2.0', id, method: pick(['tools/list', 'ping', 'nope/nope', ...(clean ? [] : ['initialize'])]) };
      if (roll < 0.76) return { jsonrpc: '2.0', method: 'notifications/initialized' };
      if (roll < 0.82) return { jsonrpc: '2.0', id: n, result: {} };
      if (roll < 0.9) return [message(n + 1000)];
      return junk();
    };

    const problems: string[] = [];
    const seen = { ran: 0, leftOut: 0 };
    for (let b = 0; b < BATCHES; b++) {
      clean = random() < 0.6;
      const shape = random();
      const count = shape < 0.05 ? 0 : shape < 0.1 ? pick([21, 100, 1000]) : 1 + Math.floor(random() * 20);
      const body = Array.from({ length: count }, (_, i) => message(i + 1));
      const revision = clean && random() < 0.7 ? '2025-03-26' : pick(REVISIONS);
      const answer = await postMcp(mcpUrl(), mind.mindKey, body, revision);
      const where = `batch ${b} (${count} messages, revision ${revision ?? 'none'}) -> ${answer.status}`;
      const fail = (what: string) => problems.push(`${where}: ${what}`);
      if (answer.status >= 500) fail('a 5xx');
      if (answer.bytes > LIMIT + 4096) fail(`an answer of ${answer.bytes} bytes`);
      if (revision && revision >= '2025-06-18' && answer.status !== 400) fail('a batch ran where the revision has none');
      if (count > 20 && answer.status !== 400) fail('more messages than a batch may hold ran');
      const sentIds = new Set(
        body.filter((m) => typeof m === 'object' && m !== null && 'method' in m).map((m) => JSON.stringify((m as { id?: unknown }).id)),
      );
      if (answer.messages.length > sentIds.size + 1) fail(`${answer.messages.length} answers to ${sentIds.size} requests`);
      if (answer.status === 200) seen.ran++;
      for (const m of answer.messages) {
        if ((m.error?.data as { statusCode?: number } | undefined)?.statusCode === 413) seen.leftOut++;
        if (m.error?.code === -32603) fail(`an internal error: ${m.error.message}`);
        if (answer.status === 200 && !sentIds.has(JSON.stringify(m.id))) fail(`an answer to id ${JSON.stringify(m.id)}, never sent`);
      }
    }
    t.diagnostic(`batches that ran: ${seen.ran}; answers left out by the bound: ${seen.leftOut}`);
    assert.deepEqual(problems, [], problems.join('\n'));
    // The generator reaches what it is for: batches that run, and answers past the bound.
    assert.ok(seen.ran >= 30 && seen.leftOut >= 5, JSON.stringify(seen));
  });
});
