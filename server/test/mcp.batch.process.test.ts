// One MCP request must not take the server down: the batch attack of the third security review, with
// smaller numbers, against the service as its own process (its memory is the process's RSS). Scripts
// of 200,000 characters, then one POST of list_scripts calls under 2025-03-26: the server's RSS,
// /health's latency while the batch runs and the answer's bytes stay bounded.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshPostgresSchema, TEST_DATABASE_URL } from './harness.js';
import { postMcp, toolCall } from './mcp/batches.js';
import { callServer, type ServerProcess, startServerProcess } from './server-process.js';

const SCRIPTS = 10;
const SCRIPT_CHARS = 200_000;
/** The default bound of one answer (MIND_MCP_MAX_ANSWER_BYTES). */
const ANSWER_BOUND = 8 * 1024 * 1024;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;

interface Measured {
  status: number;
  answerBytes: number;
  messages: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  healthMaxMs: number;
}

describe('one MCP batch against the server process', () => {
  let server: ServerProcess;
  let dir: string;
  let dropSchema = async () => {};
  let mindKey: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mind-mcp-batch-'));
    const schema = TEST_DATABASE_URL ? await freshPostgresSchema(TEST_DATABASE_URL) : undefined;
    if (schema) dropSchema = schema.drop;
    server = await startServerProcess({ MIND_DATA_DIR: dir, ...(schema ? { DATABASE_URL: schema.url } : {}) });
    const user = await callServer(server.url, 'POST', '/register', null, { email: 'batch@example.com', password: 'correct horse' });
    mindKey = (await callServer(server.url, 'POST', '/minds', user.jwt, { name: 'attacked' })).mind_key;
    for (let i = 0; i < SCRIPTS; i++) {
      await callServer(server.url, 'POST', '/mind/scripts', mindKey, { name: `script ${i}`, content: `${i}`.repeat(SCRIPT_CHARS) });
    }
    // The tools are built at the first /mcp request (seconds on a busy machine): not part of what is measured.
    assert.equal((await postMcp(new URL('/mcp', server.url), mindKey, toolCall('list_tasks'), '2025-03-26')).status, 200);
  });

  after(async () => {
    await server?.stop('SIGKILL');
    await dropSchema();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Sends the batch while sampling the server's RSS and /health's latency, until the answer is read. */
  async function attack(calls: number): Promise<Measured> {
    const pid = server.child.pid!;
    const rssBeforeMb = rssMb(pid);
    let rssPeakMb = rssBeforeMb;
    let healthMaxMs = 0;
    let done = false;
    const sampler = (async () => {
      while (!done) {
        rssPeakMb = Math.max(rssPeakMb, rssMb(pid));
        await new Promise((resume) => setTimeout(resume, 25));
      }
    })();
    const prober = (async () => {
      while (!done) {
        const started = performance.now();
        await fetch(`${server.url}/health`).then((res) => res.arrayBuffer());
        healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
        await new Promise((resume) => setTimeout(resume, 50));
      }
    })();
    const batch = Array.from({ length: calls }, () => toolCall('list_scripts', { limit: 100 }));
    const answer = await postMcp(new URL('/mcp', server.url), mindKey, batch, '2025-03-26');
    done = true;
    await Promise.all([sampler, prober]);
    return { status: answer.status, answerBytes: answer.bytes, messages: answer.messages.length, rssBeforeMb, rssPeakMb, healthMaxMs };
  }

  test('100 list_scripts calls in one POST: refused before anything runs; the most a batch may hold stays bounded', async (t) => {
    const flood = await attack(100);
    t.diagnostic(`100 calls: ${JSON.stringify(flood)}`);
    const most = await attack(20);
    t.diagnostic(`20 calls: ${JSON.stringify(most)}`);

    assert.equal(flood.status, 400, 'a batch holds at most 20 messages');
    assert.ok(flood.answerBytes < 1024);
    assert.equal(most.status, 200);
    assert.equal(most.messages, 20, 'every call has its answer (past the bound, an error)');
    assert.ok(most.answerBytes <= ANSWER_BOUND + 64 * 1024, `the answer is ${most.answerBytes} bytes`);
    // Generous margins for a busy 2-core machine: the bound is about 8 MB of answer, one call at a time.
    assert.ok(most.rssPeakMb - most.rssBeforeMb < 200, `RSS grew from ${most.rssBeforeMb} to ${most.rssPeakMb} MB`);
    assert.ok(most.healthMaxMs < 1500, `/health answered in ${most.healthMaxMs} ms at worst`);
  });
});
