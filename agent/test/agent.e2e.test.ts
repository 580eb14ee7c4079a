// End to end: a real X server (Xvfb) with an xterm, the real service, and `screen-remote-agent` as child
// processes. Everything is driven through the public HTTP API; effects are read from what the xterm's
// program received (see x11-session.ts).
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bearer, startService, type TestService } from '../../server/test/harness.js';
import { pngSize } from '../src/png.js';
import { hasCommand, mouseReports, startX11Session, waitUntil, type X11Session } from './x11-session.js';

const BIN = fileURLToPath(new URL('../bin/screen-remote-agent.mjs', import.meta.url));
const missing = ['Xvfb', 'xdotool', 'import', 'xterm'].filter((c) => !hasCommand(c));
const skip =
  missing.length > 0
    ? `needs an X server to drive: ${missing.join(', ')} not installed (apt-get install xvfb xdotool imagemagick xterm)`
    : false;

interface Agent {
  child: ChildProcess;
  log(): string;
  exited: Promise<number | null>;
}

describe('screen-remote-agent end to end', { skip, timeout: 180_000 }, () => {
  let x: X11Session;
  let svc: TestService;
  let server: Server;
  let baseUrl: string;
  let dir: string;
  let auth: Record<string, string>;
  let computerId: string;
  let agent: Agent;
  const agents: Agent[] = [];

  const env = () => ({ ...process.env, DISPLAY: x.display, LANG: 'C.UTF-8' });

  function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: env() }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  function startAgent(config: string, extra: string[] = []): Agent {
    const child = spawn(process.execPath, [BIN, 'run', '--config', config, '--wait', '2', '--max-backoff', '1', ...extra], { env: env() });
    let log = '';
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const started = { child, log: () => log, exited };
    agents.push(started);
    return started;
  }

  async function register(name: string): Promise<{ id: string; config: string }> {
    const code = await svc.http.post('/computers/install-code').set(auth).send({ computer_name: name }).expect(201);
    const config = join(dir, name, 'config.json');
    const res = await cli(['register', '--server', baseUrl, '--install-code', code.body.install_code, '--name', name, '--config', config]);
    assert.equal(res.code, 0, res.stderr);
    const list = await svc.http.get('/computers/list').set(auth).expect(200);
    const computer = list.body.computers.find((c: { computer_name: string }) => c.computer_name === name);
    assert.ok(computer, `${name} is listed`);
    return { id: computer.id, config };
  }

  async function queue(type: string, payload: Record<string, unknown>, id = computerId): Promise<string> {
    const res = await svc.http.post(`/computers/${id}/commands`).set(auth).send({ type, payload }).expect(201);
    return res.body.command_id;
  }

  async function finished(cid: string, id = computerId) {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await svc.http.get(`/computers/${id}/commands/${cid}`).set(auth).expect(200);
      if (res.body.status === 'done' || res.body.status === 'failed') return res.body;
      if (Date.now() > deadline) throw new Error(`command ${cid} still ${res.body.status}; agent log:\n${agent?.log()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Queues a command, waits for its result, and returns it with the bytes the xterm received meanwhile. */
  async function perform(type: string, payload: Record<string, unknown>) {
    const mark = x.record().length;
    const command = await finished(await queue(type, payload));
    assert.equal(command.status, 'done', `${type} failed: ${command.error}`);
    assert.equal(command.result.ok, true);
    assert.equal(typeof command.result.duration_ms, 'number');
    await new Promise((r) => setTimeout(r, 150)); // the terminal forwards input asynchronously
    return { command, received: x.record().subarray(mark) };
  }

  // Test points stay clear of cell edges, where xterm's rounding could differ by one.
  const cellOf = (px: number, py: number) => ({
    column: Math.floor((px - x.cell.border) / x.cell.width) + 1,
    row: Math.floor((py - x.cell.border) / x.cell.height) + 1,
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-e2e-'));
    x = await startX11Session(dir);
    svc = await startService();
    server = createServer(svc.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    auth = bearer((await svc.mind()).mindKey);
  });

  after(async () => {
    for (const a of agents) if (a.child.exitCode === null) a.child.kill('SIGKILL');
    server?.closeAllConnections();
    server?.close();
    await svc?.stop();
    x?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('register saves the token in a file only its user can read, and the computer is listed', async () => {
    const registered = await register('e2e-desktop');
    computerId = registered.id;
    assert.equal(statSync(registered.config).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'e2e-desktop')).mode & 0o777, 0o700);
    const computer = (await svc.http.get(`/computers/${computerId}`).set(auth).expect(200)).body;
    assert.equal(computer.platform, process.platform);
    assert.match(computer.python, /^node v\d+\./);
    agent = startAgent(registered.config);
  });

  test('the same install code cannot register twice, and the CLI says why', async () => {
    const code = await svc.http.post('/computers/install-code').set(auth).send({}).expect(201);
    const first = await cli([
      'register',
      '--server',
      baseUrl,
      '--install-code',
      code.body.install_code,
      '--config',
      join(dir, 'once', 'a.json'),
    ]);
    assert.equal(first.code, 0, first.stderr);
    const again = await cli([
      'register',
      '--server',
      baseUrl,
      '--install-code',
      code.body.install_code,
      '--config',
      join(dir, 'once', 'b.json'),
    ]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /registration refused: .*code/i);
  });

  test('screenshot: GET /computers/:id/screenshot answers a PNG of the whole screen', async () => {
    const res = await svc.http
      .get(`/computers/${computerId}/screenshot`)
      .set(auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    assert.equal(res.headers['content-type'], 'image/png');
    assert.deepEqual(pngSize(res.body), { width: 1024, height: 768 });
  });

  test('screenshot as a command: the result has screenshot_b64, width and height', async () => {
    const { command } = await perform('screenshot', {});
    assert.equal(command.result.width, 1024);
    assert.equal(command.result.height, 768);
    assert.deepEqual(pngSize(Buffer.from(command.result.screenshot_b64, 'base64')), { width: 1024, height: 768 });
  });

  test('click: left and right clicks reach the window at the cell under the point', async () => {
    const left = await perform('click', { x: 100, y: 50 });
    assert.deepEqual(mouseReports(left.received), [
      { button: 0, ...cellOf(100, 50), press: true },
      { button: 0, ...cellOf(100, 50), press: false },
    ]);
    const right = await perform('click', { x: 203, y: 95, button: 'right' });
    assert.deepEqual(mouseReports(right.received), [
      { button: 2, ...cellOf(203, 95), press: true },
      { button: 2, ...cellOf(203, 95), press: false },
    ]);
    const double = await perform('click', { x: 150, y: 50, double: true, button: 'middle' });
    assert.deepEqual(
      mouseReports(double.received).map((r) => [r.button, r.press]),
      [
        [1, true],
        [1, false],
        [1, true],
        [1, false],
      ],
    );
  });

  test('type: unicode text arrives as typed', async () => {
    const { received, command } = await perform('type', { text: 'héllo wörld ✓ -n' });
    assert.equal(received.toString('utf8'), 'héllo wörld ✓ -n');
    assert.equal(command.result.characters, 16);
  });

  test('key: combinations as users write them', async () => {
    assert.deepEqual((await perform('key', { keys: ['ctrl', 'u'] })).received, Buffer.from([0x15]));
    assert.deepEqual((await perform('key', { keys: ['ctrl+c'] })).received, Buffer.from([0x03]));
    assert.deepEqual((await perform('key', { keys: ['Return'] })).received, Buffer.from([0x0d]));
    const backTab = await perform('key', { keys: ['shift', 'Tab'] });
    assert.equal(backTab.received.toString('latin1'), '\x1b[Z');
    assert.equal(backTab.command.result.keys, 'Shift_L+Tab');
  });

  test('scroll: pixels become wheel steps, positive is down; horizontal works too', async () => {
    await perform('move', { x: 300, y: 100 });
    const down = await perform('scroll', { deltaY: 300 });
    assert.deepEqual(
      mouseReports(down.received).map((r) => r.button),
      [65, 65, 65],
    );
    assert.deepEqual(down.command.result, { ...down.command.result, steps_x: 0, steps_y: 3 });
    const up = await perform('scroll', { deltaY: -40 });
    assert.deepEqual(
      mouseReports(up.received).map((r) => r.button),
      [64],
    );
    const sideways = await perform('scroll', { deltaX: 200, deltaY: 0 });
    assert.equal(sideways.command.result.steps_x, 2);
  });

  test('drag: press at the start, motion with the button held, release at the end', async () => {
    const { received } = await perform('drag', { fromX: 60, fromY: 60, toX: 300, toY: 200 });
    const reports = mouseReports(received);
    assert.deepEqual(reports[0], { button: 0, ...cellOf(60, 60), press: true });
    assert.ok(
      reports.some((r) => r.button === 32),
      'motion with the left button held',
    );
    assert.deepEqual(reports.at(-1), { button: 0, ...cellOf(300, 200), press: false });
  });

  test('a failing command is reported as failed with its error, and the agent keeps running', async () => {
    const unknownKey = await finished(await queue('key', { keys: ['ctrl', 'nosuchkey'] }));
    assert.equal(unknownKey.status, 'failed');
    assert.match(unknownKey.error, /unknown key "nosuchkey"/);
    assert.equal(unknownKey.result.ok, false);
    const offScreen = await finished(await queue('click', { x: 5000, y: 10 }));
    assert.equal(offScreen.status, 'failed');
    assert.match(offScreen.error, /outside the screen \(1024x768\)/);
    const { received } = await perform('type', { text: 'still here' });
    assert.equal(received.toString(), 'still here');
  });

  test('the agent reconnects after the server was down and runs what was queued meanwhile', async () => {
    const port = (server.address() as AddressInfo).port;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await waitUntil(() => agent.log().includes('cannot poll the server'), 10_000, 'the agent noticed the server is down');
    const cid = await queue('type', { text: 'back again' }); // supertest reaches the app without the listener
    server = createServer(svc.app).listen(port, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const command = await finished(cid);
    assert.equal(command.status, 'done');
    assert.match(agent.log(), /connected to the server again/);
  });

  test('SIGTERM while a command runs: the command finishes and is reported, then the agent exits 0', async () => {
    const second = await register('e2e-second');
    const other = startAgent(second.config);
    await waitUntil(
      () => other.log().includes('waiting for commands'),
      30_000,
      () => `the second agent started; its log:\n${other.log()}`,
    );
    const cid = await queue('type', { text: 'x'.repeat(200) }, second.id); // about a second of typing
    const deadline = Date.now() + 15_000;
    while ((await svc.http.get(`/computers/${second.id}/commands/${cid}`).set(auth)).body.status === 'queued') {
      if (Date.now() > deadline) throw new Error('the second agent never took the command');
      await new Promise((r) => setTimeout(r, 20));
    }
    other.child.kill('SIGTERM');
    assert.equal(await other.exited, 0, other.log());
    const command = (await svc.http.get(`/computers/${second.id}/commands/${cid}`).set(auth).expect(200)).body;
    assert.equal(command.status, 'done', other.log());
    const log = other.log();
    const signalled = log.indexOf('SIGTERM: finishing the command in hand');
    assert.ok(signalled >= 0 && signalled < log.indexOf(`type ${cid}`), `the signal came while the command ran:\n${log}`);
  });

  test('SIGINT while waiting for commands: the poll is cut short and the agent exits 0 at once', async () => {
    const third = await register('e2e-third');
    const idle = startAgent(third.config, ['--wait', '30']);
    await waitUntil(
      () => idle.log().includes('waiting for commands'),
      30_000,
      () => `the third agent started; its log:\n${idle.log()}`,
    );
    await new Promise((r) => setTimeout(r, 500)); // inside its 30 s poll now
    const started = Date.now();
    idle.child.kill('SIGINT');
    assert.equal(await idle.exited, 0, idle.log());
    assert.ok(Date.now() - started < 3000, `exited after ${Date.now() - started} ms`);
    assert.match(idle.log(), /stopped/);
  });

  test('disabling the computer revokes the token: the agent exits with code 3 and says why', async () => {
    await svc.http.post(`/computers/${computerId}/disable`).set(auth).expect(200);
    assert.equal(await agent.exited, 3, agent.log());
    assert.match(agent.log(), /refused this computer's token \(401/);
    assert.match(agent.log(), /register it again with a new install code/);
  });
});
