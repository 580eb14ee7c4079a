// The service as a real child process, killed with SIGKILL: handing a command over is a database
// write, so what was queued survives and what was handed out is not handed out again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { type ServerProcess, startServerProcess } from './server-process.js';

const startServer = (dataDir: string) => startServerProcess({ MIND_DATA_DIR: dataDir });
const kill = async (running: ServerProcess) => {
  await running.stop('SIGKILL');
};

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('computers: a killed server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mind-restart-'));
  const started: ServerProcess[] = [];
  after(async () => {
    for (const running of started) await kill(running);
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('delivers a command queued before SIGKILL after the restart, and never again one handed out before it', async () => {
    const first = await startServer(dataDir);
    started.push(first);
    const { url } = first;
    const user = await call(url, 'POST', '/register', undefined, { email: 'restart@example.com', password: 'correct horse' });
    assert.equal(user.status, 201);
    const mind = await call(url, 'POST', '/minds', user.body.jwt, { name: 'restart' });
    const code = await call(url, 'POST', '/computers/install-code', mind.body.mind_key, {});
    const computer = await call(url, 'POST', '/computers/register', undefined, {
      code: code.body.install_code,
      computer_name: 'pc',
      platform: 'linux',
      platform_release: '6',
      python: 'node',
    });
    assert.equal(computer.status, 201);
    const { computer_id: computerId, computer_token: token } = computer.body as { computer_id: string; computer_token: string };
    const mindKey = mind.body.mind_key as string;

    const handedOut = await call(url, 'POST', `/computers/${computerId}/commands`, mindKey, { type: 'click', payload: { x: 1, y: 2 } });
    const polled = await call(url, 'GET', '/computers/me/poll?wait=0', token);
    assert.deepEqual(
      polled.body.commands.map((c: { command_id: string }) => c.command_id),
      [handedOut.body.command_id],
    );
    const waiting = await call(url, 'POST', `/computers/${computerId}/commands`, mindKey, {
      type: 'type',
      payload: { text: 'after restart' },
    });
    assert.equal(waiting.status, 201);

    await kill(first);
    const second = await startServer(dataDir);
    started.push(second);

    const afterRestart = await call(second.url, 'GET', '/computers/me/poll?wait=0', token);
    assert.equal(afterRestart.status, 200);
    assert.deepEqual(
      afterRestart.body.commands.map((c: { command_id: string; payload: unknown }) => [c.command_id, c.payload]),
      [[waiting.body.command_id, { text: 'after restart' }]],
    );
    const handedOutNow = await call(second.url, 'GET', `/computers/${computerId}/commands/${handedOut.body.command_id}`, mindKey);
    assert.equal(handedOutNow.body.status, 'sent');
    assert.equal(handedOutNow.body.attempts, 1);
    assert.deepEqual((await call(second.url, 'GET', '/computers/me/poll?wait=0', token)).body, { commands: [] });
  });
});
