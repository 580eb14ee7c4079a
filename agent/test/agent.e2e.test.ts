// End to end: a real X server (Xvfb) with an xterm, the real service, and `screen-remote-agent` as child
// processes. Everything is driven through the public HTTP API; effects are read from what the xterm's
// program received (see x11-session.ts).
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { bearer, startService, type TestService } from '../../server/test/harness.js';
import { pngSize } from '../src/png.js';
import { AUTOREPEAT_DELAY_MS, hasCommand, mouseReports, startX11Session, TEXT_LINES, waitUntil, type X11Session } from './x11-session.js';

const BIN = fileURLToPath(new URL('../bin/screen-remote-agent.mjs', import.meta.url));
const missing = ['Xvfb', 'xdotool', 'import', 'convert', 'compare', 'xterm'].filter((c) => !hasCommand(c));
const skip =
  missing.length > 0
    ? `needs an X server to drive: ${missing.join(', ')} not installed (apt-get install xvfb xdotool imagemagick xterm)`
    : false;
/** Selections are read back from the X PRIMARY selection with xclip. */
const noXclip = hasCommand('xclip') ? false : 'needs xclip to read the selection (apt-get install xclip)';
/** Larger than the 1024 px a model is sent, so screenshots are scaled. */
const SCREEN = { width: 1600, height: 1000 };

/** ImageMagick `convert` with `input` on stdin; resolves with stdout. */
function magick(args: string[], input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile('convert', args, { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin!.end(input);
  });
}

/** How many pixels differ between two PNGs of the same size (ImageMagick's AE metric). */
async function differingPixels(a: Buffer, b: Buffer): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'agent-compare-'));
  try {
    writeFileSync(join(dir, 'a.png'), a);
    writeFileSync(join(dir, 'b.png'), b);
    const text = await new Promise<string>((resolve) => {
      // compare exits 1 when the images differ and prints the count on stderr.
      execFile('compare', ['-metric', 'AE', join(dir, 'a.png'), join(dir, 'b.png'), 'null:'], (_error, _stdout, stderr) => resolve(stderr));
    });
    return Number(text.trim());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

  function cli(args: string[], environment: NodeJS.ProcessEnv = env()): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: environment }, (error, stdout, stderr) => {
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

  async function register(name: string, environment: NodeJS.ProcessEnv = env()): Promise<{ id: string; config: string }> {
    const code = await svc.http.post('/computers/install-code').set(auth).send({ computer_name: name }).expect(201);
    const config = join(dir, name, 'config.json');
    const args = ['register', '--server', baseUrl, '--install-code', code.body.install_code, '--name', name, '--config', config];
    const res = await cli(args, environment);
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

  const screenSize = () => ({ screen_width: x.screen.width, screen_height: x.screen.height });

  /** A point in the text window's cell (column, row), its middle or just inside its left edge. */
  const textPoint = (column: number, row: number, where: 'middle' | 'left' = 'middle') => ({
    x: Math.round(x.textWindow.x + x.cell.border + (column - 1) * x.cell.width + (where === 'left' ? 1 : x.cell.width / 2)),
    y: Math.round(x.textWindow.y + x.cell.border + (row - 0.5) * x.cell.height),
  });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-e2e-'));
    x = await startX11Session(dir, SCREEN);
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
    assert.deepEqual(computer.screen, SCREEN, 'register sent the screen it read');
    agent = startAgent(registered.config);
    await waitUntil(
      () => agent.log().includes('screen 1600x1000 reported'),
      30_000,
      () => `the agent reported the screen:\n${agent.log()}`,
    );
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
    assert.deepEqual(pngSize(res.body), SCREEN);
  });

  test('screenshot as a command: the result has screenshot_b64, width and height, the screen and scale 1', async () => {
    const { command } = await perform('screenshot', {});
    assert.equal(command.result.width, 1600);
    assert.equal(command.result.height, 1000);
    assert.equal(command.result.screen_width, 1600);
    assert.equal(command.result.screen_height, 1000);
    assert.equal(command.result.scale, 1);
    assert.deepEqual(pngSize(Buffer.from(command.result.screenshot_b64, 'base64')), SCREEN);
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

  test('without a display registration still works; run reports the screen at start and refuses a zoom off it', async () => {
    const { DISPLAY: _, ...noDisplay } = env();
    const registered = await register('e2e-nodisplay', noDisplay);
    const shown = async () => (await svc.http.get(`/computers/${registered.id}`).set(auth).expect(200)).body.screen;
    assert.equal(await shown(), null);
    // The server knows no screen yet, so it queues this zoom; the agent refuses it.
    const cid = await queue('zoom', { x: 1500, y: 900, width: 200, height: 200 }, registered.id);
    const other = startAgent(registered.config);
    const zoom = await finished(cid, registered.id);
    assert.equal(zoom.status, 'failed');
    assert.match(zoom.error, /zoom region 200x200 at \(1500, 900\) is not on the screen \(1600x1000\)/);
    assert.deepEqual(await shown(), SCREEN, 'GET /computers/:id shows the screen the agent reported');
    assert.match(other.log(), /screen 1600x1000 reported/);
    // Now the server knows the screen and refuses such a region itself.
    const refused = await svc.http
      .post(`/computers/${registered.id}/commands`)
      .set(auth)
      .send({ type: 'zoom', payload: { x: 1500, y: 900, width: 200, height: 200 } });
    assert.equal(refused.status, 400);
    other.child.kill('SIGTERM');
    assert.equal(await other.exited, 0, other.log());
  });

  test('screenshot with max_width 1024: a 1024x640 PNG, scale 0.64, which maps a PNG point back to the screen', async () => {
    const { command } = await perform('screenshot', { max_width: 1024 });
    const { width, height, screen_width, screen_height, scale } = command.result;
    assert.deepEqual({ width, height, screen_width, screen_height, scale }, { width: 1024, height: 640, ...screenSize(), scale: 0.64 });
    assert.deepEqual(pngSize(Buffer.from(command.result.screenshot_b64, 'base64')), { width: 1024, height: 640 });
    // A point a model picks in the PNG, clicked at round(p / scale) on the screen.
    for (const [px, py] of [
      [131, 33],
      [250, 150],
    ] as const) {
      const screenX = Math.round(px / scale);
      const screenY = Math.round(py / scale);
      const { received } = await perform('click', { x: screenX, y: screenY });
      assert.deepEqual(mouseReports(received)[0], { button: 0, ...cellOf(px / 0.64, py / 0.64), press: true });
    }
    const tall = await perform('screenshot', { max_width: 1000, max_height: 500 });
    assert.deepEqual([tall.command.result.width, tall.command.result.height, tall.command.result.scale], [800, 500, 0.5]);
    const larger = await perform('screenshot', { max_width: 4000 });
    assert.deepEqual([larger.command.result.width, larger.command.result.scale], [1600, 1], 'never scaled up');
  });

  test('zoom: a PNG of exactly the region, scaled to fit max_width / max_height, up or down', async () => {
    const region = { x: x.textWindow.x, y: x.textWindow.y, width: 200, height: 40 };
    const plain = (await perform('zoom', region)).command;
    assert.deepEqual(plain.result.region, region);
    assert.deepEqual([plain.result.width, plain.result.height, plain.result.scale], [200, 40, 1]);
    assert.deepEqual([plain.result.screen_width, plain.result.screen_height], [1600, 1000]);
    // The same pixels as that region of a full screenshot (the text window does not change).
    const full = (await perform('screenshot', {})).command;
    const cropped = await magick(['png:-', '-crop', '200x40+600+0', '+repage', 'png:-'], Buffer.from(full.result.screenshot_b64, 'base64'));
    assert.equal(await differingPixels(cropped, Buffer.from(plain.result.screenshot_b64, 'base64')), 0);
    const up = (await perform('zoom', { ...region, max_width: 800 })).command;
    assert.deepEqual([up.result.width, up.result.height, up.result.scale], [800, 160, 4]);
    assert.deepEqual(pngSize(Buffer.from(up.result.screenshot_b64, 'base64')), { width: 800, height: 160 });
    const down = (await perform('zoom', { x: 0, y: 0, width: 1600, height: 1000, max_height: 250 })).command;
    assert.deepEqual([down.result.width, down.result.height, down.result.scale], [400, 250, 0.25]);
  });

  test('click count 3 selects a whole line in a terminal (read back from the PRIMARY selection)', { skip: noXclip }, async () => {
    const row2 = textPoint(3, 2);
    await perform('click', { ...row2, count: 3 });
    assert.equal(x.primarySelection().replace(/\n$/, ''), TEXT_LINES[1]);
  });

  test('mouse_down, move, mouse_up select a range of text', { skip: noXclip }, async () => {
    const start = textPoint(1, 1, 'left');
    const end = textPoint(10, 2, 'left'); // just right of the 9th character's right edge
    await perform('mouse_down', start);
    await perform('move', textPoint(8, 1));
    await perform('move', end);
    const up = await perform('mouse_up', {});
    assert.equal(up.command.result.button, 'left');
    assert.equal(x.primarySelection(), `${TEXT_LINES[0]}\n${TEXT_LINES[1]!.slice(0, 9)}`);
  });

  test('cursor_position answers where the pointer is; click, mouse_down and mouse_up without x, y act there', async () => {
    await perform('move', { x: 321, y: 123 });
    const where = (await perform('cursor_position', {})).command;
    assert.deepEqual([where.result.x, where.result.y], [321, 123]);
    const clicked = await perform('click', {});
    assert.deepEqual(mouseReports(clicked.received), [
      { button: 0, ...cellOf(321, 123), press: true },
      { button: 0, ...cellOf(321, 123), press: false },
    ]);
    const down = await perform('mouse_down', { button: 'right' });
    const up = await perform('mouse_up', { x: 203, y: 95, button: 'right' });
    assert.deepEqual(mouseReports(down.received), [{ button: 2, ...cellOf(321, 123), press: true }]);
    assert.deepEqual(mouseReports(up.received).at(-1), { button: 2, ...cellOf(203, 95), press: false });
  });

  test('modifiers are held during a click, scroll and drag, and released after; side buttons arrive', async () => {
    // xterm's mouse reports add 8 for alt (meta) and 16 for ctrl; shift and ctrl clicks are xterm's own.
    const altClick = await perform('click', { x: 100, y: 50, modifiers: ['alt'] });
    assert.deepEqual(
      mouseReports(altClick.received).map((r) => r.button),
      [8, 8],
    );
    assert.deepEqual(altClick.command.result.modifiers, ['alt']);
    const ctrlWheel = await perform('scroll', { x: 100, y: 50, deltaY: 100, modifiers: ['ctrl'] });
    assert.deepEqual(
      mouseReports(ctrlWheel.received).map((r) => r.button),
      [65 + 16],
    );
    const both = await perform('scroll', { deltaY: -100, modifiers: ['ctrl', 'alt'] });
    assert.deepEqual(
      mouseReports(both.received).map((r) => r.button),
      [64 + 16 + 8],
    );
    const altDrag = await perform('drag', { fromX: 60, fromY: 60, toX: 200, toY: 120, modifiers: ['alt'] });
    assert.ok(
      mouseReports(altDrag.received).every((r) => (r.button & 8) === 8),
      'alt held through the drag',
    );
    const plain = await perform('click', { x: 100, y: 50 });
    assert.deepEqual(
      mouseReports(plain.received).map((r) => r.button),
      [0, 0],
      'released',
    );
    const typed = await perform('type', { text: 'u' });
    assert.equal(typed.received.toString(), 'u', 'no modifier left down');
    const back = await perform('click', { x: 100, y: 50, button: 'back' });
    const forward = await perform('click', { x: 100, y: 50, button: 'forward' });
    assert.deepEqual(
      [...mouseReports(back.received), ...mouseReports(forward.received)].map((r) => r.button),
      [128, 128, 129, 129],
    );
  });

  test('drag along a path: pressed at the first point, through the others, released at the last', async () => {
    const path = [
      { x: 30, y: 30 },
      { x: 130, y: 40 },
      { x: 233, y: 150 },
      { x: 330, y: 246 },
    ];
    const { received } = await perform('drag', { path, button: 'middle' });
    const reports = mouseReports(received);
    assert.deepEqual(reports[0], { button: 1, ...cellOf(30, 30), press: true });
    const motion = reports.filter((r) => r.button === 33).map(({ column, row }) => ({ column, row }));
    for (const point of path.slice(1)) {
      const { column, row } = cellOf(point.x, point.y);
      assert.ok(
        motion.some((m) => m.column === column && m.row === row),
        `motion through (${point.x}, ${point.y}): ${JSON.stringify(reports)}`,
      );
    }
    assert.deepEqual(reports.at(-1), { button: 1, ...cellOf(330, 246), press: false });
  });

  test('hold_key keeps the keys down for duration_ms; wait takes its time, then a screenshot when asked', async () => {
    // The X server repeats a key held longer than its autorepeat delay (AUTOREPEAT_DELAY_MS): a tap
    // arrives once, a hold past the delay several times.
    // Upper bounds are loose: on a loaded machine the agent may be descheduled between key down and up.
    const tap = await perform('hold_key', { keys: ['ctrl', 'u'], duration_ms: 100 });
    if (tap.command.result.duration_ms < AUTOREPEAT_DELAY_MS - 100) assert.deepEqual(tap.received, Buffer.from([0x15]));
    else assert.ok(tap.received.length >= 1 && tap.received.every((byte) => byte === 0x15));
    const started = Date.now();
    const hold = AUTOREPEAT_DELAY_MS + 500;
    const held = await perform('hold_key', { keys: ['ctrl', 'u'], duration_ms: hold });
    const took = held.command.result.duration_ms;
    assert.ok(took >= hold && took <= hold + 1000, `held ${took} ms`);
    assert.ok(Date.now() - started >= hold);
    assert.ok(
      held.received.length >= 3 && held.received.every((byte) => byte === 0x15),
      `ctrl+u repeated: ${held.received.toString('hex')}`,
    );
    assert.equal((await perform('type', { text: 'u' })).received.toString(), 'u', 'and came up');
    const waited = (await perform('wait', { duration_ms: 800 })).command;
    assert.ok(waited.result.duration_ms >= 800 && waited.result.duration_ms <= 1600, `waited ${waited.result.duration_ms} ms`);
    assert.equal(waited.result.screenshot_b64, undefined);
    const looked = (await perform('wait', { duration_ms: 300, screenshot: true, max_width: 800 })).command;
    assert.ok(looked.result.duration_ms >= 300);
    assert.deepEqual([looked.result.width, looked.result.height, looked.result.scale], [800, 500, 0.5]);
    assert.deepEqual(pngSize(Buffer.from(looked.result.screenshot_b64, 'base64')), { width: 800, height: 500 });
  });

  test('a failing command is reported as failed with its error, and the agent keeps running', async () => {
    const unknownKey = await finished(await queue('key', { keys: ['ctrl', 'nosuchkey'] }));
    assert.equal(unknownKey.status, 'failed');
    assert.match(unknownKey.error, /unknown key "nosuchkey"/);
    assert.equal(unknownKey.result.ok, false);
    const offScreen = await finished(await queue('click', { x: 5000, y: 10 }));
    assert.equal(offScreen.status, 'failed');
    assert.match(offScreen.error, /outside the screen \(1600x1000\)/);
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
