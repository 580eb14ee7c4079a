// The agent's pure parts: key names, wheel steps, xdotool arguments, screenshot scaling, PNG sizes, the
// config file, the command line's answers to bad input, the runner's screen reports. No X server needed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EXIT, main } from '../src/cli.js';
import { configPath, loadConfig, saveConfig } from '../src/config.js';
import { keyCombination, keysym, UnknownKeyError } from '../src/drivers/keys.js';
import type { Driver, Screenshot, Size } from '../src/drivers/driver.js';
import { imageArgs, MAX_ZOOM_SIDE, screenshotPlan, zoomPlan } from '../src/drivers/scaling.js';
import { typingPlan } from '../src/drivers/x11.js';
import { clickArgs, dragArgs, parseMouseLocation, scrollArgs, wheelSteps } from '../src/drivers/xdotool-args.js';
import { executeCommand } from '../src/execute.js';
import { fromToPath } from '../src/payload.js';
import { pngSize } from '../src/png.js';
import { Runner } from '../src/runner.js';

describe('key names', () => {
  test('modifiers and named keys as users write them become X11 keysyms', () => {
    assert.equal(keyCombination(['ctrl', 'c']), 'Control_L+c');
    assert.equal(keyCombination(['ctrl+c']), 'Control_L+c');
    assert.equal(keyCombination(['shift+Tab']), 'Shift_L+Tab');
    assert.equal(keyCombination(['Control', 'Alt', 'Delete']), 'Control_L+Alt_L+Delete');
    assert.equal(keyCombination(['Super']), 'Super_L');
    assert.equal(keyCombination(['cmd', 'space']), 'Super_L+space');
    assert.equal(keyCombination(['Return']), 'Return');
    assert.equal(keyCombination(['enter']), 'Return');
    assert.equal(keyCombination(['Esc']), 'Escape');
    assert.equal(keyCombination(['PageDown']), 'Next');
    assert.equal(keyCombination(['ArrowLeft']), 'Left');
    assert.equal(keyCombination(['backspace']), 'BackSpace');
    assert.equal(keyCombination(['alt', 'F4']), 'Alt_L+F4');
    assert.equal(keyCombination(['f12']), 'F12');
  });

  test('single characters: letters are keys (ctrl+C is ctrl+c), punctuation by its keysym name, others as Unicode', () => {
    assert.equal(keyCombination(['ctrl', 'C']), 'Control_L+c');
    assert.equal(keysym('7'), '7');
    assert.equal(keysym('-'), 'minus');
    assert.equal(keysym('/'), 'slash');
    assert.equal(keysym('ä'), 'U00E4');
    assert.equal(keysym('€'), 'U20AC');
  });

  test('the plus key can be written alone or at the end of a combination', () => {
    assert.equal(keyCombination(['+']), 'plus');
    assert.equal(keyCombination(['ctrl++']), 'Control_L+plus');
    assert.equal(keyCombination(['ctrl', '+']), 'Control_L+plus');
  });

  test('X11 keysym spellings pass through; unknown names and empty parts are refused with the name', () => {
    assert.equal(keysym('KP_Enter'), 'KP_Enter');
    assert.equal(keysym('XF86AudioMute'), 'XF86AudioMute');
    assert.throws(
      () => keyCombination(['ctrl', 'nosuchkey']),
      (e: Error) => e instanceof UnknownKeyError && /"nosuchkey"/.test(e.message),
    );
    assert.throws(() => keyCombination(['ctrl+']), UnknownKeyError);
    assert.throws(() => keyCombination(['F25']), /unknown key "F25"/);
  });
});

describe('wheel steps', () => {
  test('about 100 px a step, at least one for any movement, sign kept', () => {
    assert.equal(wheelSteps(0), 0);
    assert.equal(wheelSteps(1), 1);
    assert.equal(wheelSteps(-30), -1);
    assert.equal(wheelSteps(149), 1);
    assert.equal(wheelSteps(150), 2);
    assert.equal(wheelSteps(300), 3);
    assert.equal(wheelSteps(-1000), -10);
  });
});

describe('xdotool arguments', () => {
  test('clicks: a move first only when a point is given; 2 or 3 clicks 80 ms apart; side buttons are 8 and 9', () => {
    assert.deepEqual(clickArgs({ x: 10, y: 20 }, 'left', 1), ['mousemove', '10', '20', 'click', '1']);
    assert.deepEqual(clickArgs({ x: 10, y: 20 }, 'middle', 2), ['mousemove', '10', '20', 'click', '--repeat', '2', '--delay', '80', '2']);
    assert.deepEqual(clickArgs(undefined, 'right', 3), ['click', '--repeat', '3', '--delay', '80', '3']);
    assert.deepEqual(clickArgs(undefined, 'back', 1), ['click', '8']);
    assert.deepEqual(clickArgs(undefined, 'forward', 1), ['click', '9']);
  });

  test('scrolls: wheel buttons 4/5 down/up and 6/7, at a point when given', () => {
    assert.deepEqual(scrollArgs(undefined, 0, 3), ['click', '--repeat', '3', '--delay', '20', '5']);
    assert.deepEqual(scrollArgs({ x: 5, y: 6 }, -2, -1), [
      'mousemove',
      '5',
      '6',
      'click',
      '--repeat',
      '1',
      '--delay',
      '20',
      '4',
      'click',
      '--repeat',
      '2',
      '--delay',
      '20',
      '6',
    ]);
    assert.deepEqual(scrollArgs(undefined, 0, 0), []);
  });

  test('drags: from/to goes through the midpoint with 50 ms pauses, as it always did', () => {
    const path = fromToPath({ x: 10, y: 10 }, { x: 201, y: 150 });
    assert.deepEqual(path, [
      { x: 10, y: 10 },
      { x: 106, y: 80 },
      { x: 201, y: 150 },
    ]);
    assert.deepEqual(
      dragArgs(path, 'left').join(' '),
      'mousemove 10 10 mousedown 1 sleep 0.050 mousemove 106 80 sleep 0.050 mousemove 201 150 sleep 0.050 mouseup 1',
    );
  });

  test('drags along a long path pause less between points (about 2 s for 100), with the chosen button', () => {
    const path = Array.from({ length: 100 }, (_, i) => ({ x: i, y: 2 * i }));
    const args = dragArgs(path, 'right');
    assert.deepEqual(args.slice(0, 5), ['mousemove', '0', '0', 'mousedown', '3']);
    assert.deepEqual(args.slice(-7), ['mousemove', '99', '198', 'sleep', '0.020', 'mouseup', '3']);
    assert.equal(args.filter((a) => a === 'sleep').length, 100);
    assert.throws(() => dragArgs([{ x: 1, y: 1 }], 'left'), /at least two points/);
  });

  test('the pointer location from getmouselocation --shell', () => {
    assert.deepEqual(parseMouseLocation('X=321\nY=123\nSCREEN=0\nWINDOW=1234\n'), { x: 321, y: 123 });
    assert.throws(() => parseMouseLocation('garbage'), /getmouselocation gave "garbage"/);
  });
});

describe('screenshot scaling', () => {
  const screen = { width: 1600, height: 1000 };

  test('a screenshot is scaled down to fit, keeping the aspect ratio, never up', () => {
    assert.deepEqual(screenshotPlan(screen), { width: 1600, height: 1000, scale: 1 });
    assert.deepEqual(screenshotPlan(screen, { maxWidth: 1024 }), { width: 1024, height: 640, scale: 0.64 });
    assert.deepEqual(screenshotPlan(screen, { maxHeight: 500 }), { width: 800, height: 500, scale: 0.5 });
    assert.deepEqual(screenshotPlan(screen, { maxWidth: 1000, maxHeight: 500 }), { width: 800, height: 500, scale: 0.5 });
    assert.deepEqual(screenshotPlan(screen, { maxWidth: 4000 }), { width: 1600, height: 1000, scale: 1 });
    assert.deepEqual(screenshotPlan({ width: 1920, height: 1080 }, { maxWidth: 1280, maxHeight: 800 }), {
      width: 1280,
      height: 720,
      scale: 0.666667,
    });
  });

  test('the stated scale maps every PNG point back to within half a screen pixel', () => {
    for (const [size, max] of [
      [{ width: 1920, height: 1080 }, { maxWidth: 1280 }],
      [
        { width: 2560, height: 1440 },
        { maxWidth: 1024, maxHeight: 768 },
      ],
      [{ width: 1366, height: 768 }, { maxHeight: 700 }],
    ] as const) {
      const plan = screenshotPlan(size, max);
      for (const px of [0, 1, Math.floor(plan.width / 3), plan.width - 1]) {
        const exact = (px * size.width) / plan.width;
        assert.ok(Math.abs(Math.round(px / plan.scale) - exact) <= 1, `${px} of ${plan.width} -> ${px / plan.scale} ~ ${exact}`);
      }
    }
  });

  test('a zoom is scaled up or down to fit, relative to the region', () => {
    const region = { x: 600, y: 0, width: 200, height: 40 };
    assert.deepEqual(zoomPlan(screen, region), { width: 200, height: 40, scale: 1 });
    assert.deepEqual(zoomPlan(screen, region, { maxWidth: 800 }), { width: 800, height: 160, scale: 4 });
    assert.deepEqual(zoomPlan(screen, region, { maxWidth: 800, maxHeight: 80 }), { width: 400, height: 80, scale: 2 });
    assert.deepEqual(zoomPlan(screen, { x: 0, y: 0, ...screen }, { maxHeight: 250 }), { width: 400, height: 250, scale: 0.25 });
  });

  test('a zoom region off the screen, or a PNG too large, is refused with what to change', () => {
    assert.throws(
      () => zoomPlan(screen, { x: 1500, y: 900, width: 200, height: 200 }),
      /zoom region 200x200 at \(1500, 900\) is not on the screen \(1600x1000\): x \+ width must be at most 1600/,
    );
    assert.doesNotThrow(() => zoomPlan(screen, { x: 1400, y: 800, width: 200, height: 200 }));
    assert.throws(
      () => zoomPlan(screen, { x: 0, y: 0, width: 1, height: 1 }, { maxWidth: 100_000 }),
      new RegExp(`at most ${MAX_ZOOM_SIDE} pixels a side`),
    );
  });

  test('ImageMagick arguments: crop the region, resize only when the size changes', () => {
    assert.deepEqual(imageArgs(screen, screenshotPlan(screen)), []);
    assert.deepEqual(imageArgs(screen, screenshotPlan(screen, { maxWidth: 1024 })), ['-resize', '1024x640!']);
    const region = { x: 600, y: 10, width: 200, height: 40 };
    assert.deepEqual(imageArgs(screen, zoomPlan(screen, region), region), ['-crop', '200x40+600+10', '+repage']);
    assert.deepEqual(imageArgs(screen, zoomPlan(screen, region, { maxWidth: 800 }), region), [
      '-crop',
      '200x40+600+10',
      '+repage',
      '-resize',
      '800x160!',
    ]);
  });
});

describe('typing plan', () => {
  test('plain text is typed fast in one go', () => {
    assert.deepEqual(typingPlan('hello world\n-n', 5), [{ text: 'hello world\n-n', delayMs: 5 }]);
  });

  test('other characters are typed slower, in their own runs', () => {
    assert.deepEqual(typingPlan('héllo ✓', 5), [
      { text: 'h', delayMs: 5 },
      { text: 'é', delayMs: 2000 },
      { text: 'llo ', delayMs: 5 },
      { text: '✓', delayMs: 2000 },
    ]);
  });

  test('long or much mixed texts stay within about 30 s', () => {
    const han = '漢'.repeat(3000);
    assert.deepEqual(typingPlan(han, 5), [{ text: han, delayMs: 10 }]);
    const mixed = 'aé'.repeat(100);
    assert.deepEqual(typingPlan(mixed, 5), [{ text: mixed, delayMs: 300 }]);
  });
});

describe('PNG size', () => {
  const header = (width: number, height: number) => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
    png.writeUInt32BE(13, 8);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(width, 16);
    png.writeUInt32BE(height, 20);
    return png;
  };

  test('width and height come from the IHDR chunk', () => {
    assert.deepEqual(pngSize(header(1024, 768)), { width: 1024, height: 768 });
    assert.deepEqual(pngSize(header(3840, 2160)), { width: 3840, height: 2160 });
  });

  test('anything else is refused', () => {
    assert.throws(() => pngSize(Buffer.from('GIF89a........................')), /not a PNG/);
    assert.throws(() => pngSize(header(1, 1).subarray(0, 20)), /not a PNG/);
    const wrongChunk = header(1, 1);
    wrongChunk.write('IDAT', 12, 'latin1');
    assert.throws(() => pngSize(wrongChunk), /not a PNG/);
  });
});

describe('config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-config-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('the default path follows XDG_CONFIG_HOME; --config and the environment variable override it', () => {
    assert.equal(configPath(undefined, { XDG_CONFIG_HOME: '/x/cfg' }), '/x/cfg/screen-remote-agent/config.json');
    assert.equal(configPath(undefined, { SCREEN_REMOTE_AGENT_CONFIG: '/e/c.json', XDG_CONFIG_HOME: '/x' }), '/e/c.json');
    assert.equal(configPath('/flag.json', { SCREEN_REMOTE_AGENT_CONFIG: '/e/c.json' }), '/flag.json');
  });

  test('saved with mode 0600 in a 0700 directory, even under a permissive umask', () => {
    const path = configPath(undefined, { XDG_CONFIG_HOME: dir });
    const previous = process.umask(0o000);
    try {
      saveConfig(path, { server: 'http://h', computer_id: 'id', computer_token: 'ct_x', computer_name: 'n', registered_at: 't' });
    } finally {
      process.umask(previous);
    }
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'screen-remote-agent')).mode & 0o777, 0o700);
    assert.equal(loadConfig(path).computer_token, 'ct_x');
  });

  test('a missing, broken or incomplete config says what to do', () => {
    assert.throws(() => loadConfig(join(dir, 'none.json')), /no config at .*register this computer first/);
    writeFileSync(join(dir, 'broken.json'), '{');
    assert.throws(() => loadConfig(join(dir, 'broken.json')), /cannot read/);
    writeFileSync(join(dir, 'partial.json'), JSON.stringify({ server: 'http://h' }));
    assert.throws(() => loadConfig(join(dir, 'partial.json')), /has no computer_id/);
  });
});

describe('command line', () => {
  const run = async (...argv: string[]) => {
    let out = '';
    let err = '';
    const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), env: { PATH: process.env.PATH } });
    return { code, out, err };
  };

  test('help for the program and each command', async () => {
    const top = await run('--help');
    assert.equal(top.code, EXIT.OK);
    assert.match(top.out, /register .*\n.*run .*\n.*doctor/);
    for (const command of ['register', 'run', 'doctor']) {
      const res = await run(command, '--help');
      assert.equal(res.code, EXIT.OK);
      assert.match(res.out, new RegExp(`Usage: screen-remote-agent ${command}`));
    }
  });

  test('bad input answers a usage error naming the problem, exit code 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['frobnicate'], /unknown command "frobnicate"/],
      [['register', '--install-code', 'ABCD-EFGH'], /--server is required/],
      [['register', '--server', 'http://h'], /--install-code is required/],
      [['register', '--server', 'not a url', '--install-code', 'X'], /--server must be a URL/],
      [['register', '--server', 'ftp://h', '--install-code', 'X'], /--server must start with http/],
      [['run', '--wait', '0'], /--wait must be a whole number from 1 to 60/],
      [['run', '--wait', '2.5'], /--wait must be a whole number/],
      [['run', '--bogus'], /Unknown option '--bogus'/],
    ];
    for (const [argv, message] of cases) {
      const res = await run(...argv);
      assert.equal(res.code, EXIT.USAGE, argv.join(' '));
      assert.match(res.err, message);
    }
  });

  test('run without a registration exits 4 and says how to register', async () => {
    const res = await run('run', '--config', join(tmpdir(), 'does-not-exist', 'config.json'));
    assert.equal(res.code, EXIT.NOT_REGISTERED);
    assert.match(res.err, /register this computer first/);
  });

  test('register refuses to replace an existing registration without --force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-cli-'));
    try {
      const path = join(dir, 'config.json');
      saveConfig(path, { server: 'http://h', computer_id: 'c1', computer_token: 'ct_x', computer_name: 'desk', registered_at: 't' });
      const res = await run('register', '--server', 'http://127.0.0.1:9', '--install-code', 'ABCD-EFGH', '--config', path);
      assert.equal(res.code, EXIT.FAILURE);
      assert.match(res.err, /already registered as "desk" \(c1\).*--force/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('register reports a server it cannot reach, and writes no config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-cli-'));
    try {
      const path = join(dir, 'config.json');
      // Port 9 (discard) on loopback: nothing listens there.
      const res = await run('register', '--server', 'http://127.0.0.1:9', '--install-code', 'ABCD-EFGH', '--config', path);
      assert.equal(res.code, EXIT.FAILURE);
      assert.match(res.err, /registration failed: .*cannot reach http:\/\/127\.0\.0\.1:9/);
      assert.throws(() => statSync(path));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('payload checks before anything runs', () => {
  // A driver that is never reached: every payload here is refused first.
  const untouched = {} as Driver;
  const refused = async (type: string, payload: Record<string, unknown>) => {
    const outcome = await executeCommand(untouched, { command_id: 'c', type, payload });
    assert.equal(outcome.status, 'failed', `${type} ${JSON.stringify(payload)}`);
    return outcome.status === 'failed' ? outcome.error : '';
  };

  test('odd values are refused with the field and the rule', async () => {
    assert.match(await refused('click', { x: 1 }), /payload\.y: is required with x/);
    assert.match(await refused('click', { count: 4 }), /payload\.count: must be 1, 2 or 3/);
    assert.match(await refused('click', { count: 3, double: true }), /payload\.count: is 3 but double is true/);
    assert.match(await refused('click', { button: 'fourth' }), /payload\.button: must be one of left, right, middle, back, forward/);
    assert.match(
      await refused('click', { modifiers: ['hyper'] }),
      /payload\.modifiers: must be a list of different names of: shift, ctrl, alt, super/,
    );
    assert.match(await refused('move', { x: 1, y: 1, modifiers: ['ctrl', 'ctrl'] }), /payload\.modifiers/);
    assert.match(await refused('drag', { path: [{ x: 1, y: 1 }] }), /payload\.path: must be a list of 2 to 100 points/);
    assert.match(
      await refused('drag', {
        path: [
          { x: 1, y: 1 },
          { x: -1, y: 0 },
        ],
      }),
      /payload\.path\[1\]: x and y must be whole numbers/,
    );
    assert.match(
      await refused('drag', {
        path: [
          { x: 1, y: 1 },
          { x: 2, y: 2 },
        ],
        fromX: 1,
      }),
      /cannot be given with fromX/,
    );
    assert.match(await refused('drag', { fromX: 1, fromY: 1, toX: 2 }), /payload\.toY: must be a whole number/);
    assert.match(
      await refused('hold_key', { keys: ['a'], duration_ms: 0 }),
      /payload\.duration_ms: must be a whole number of milliseconds from 1 to 10000/,
    );
    assert.match(await refused('hold_key', { keys: ['a'], duration_ms: 10_001 }), /from 1 to 10000/);
    assert.match(await refused('wait', { duration_ms: 10, max_width: 800 }), /need screenshot: true/);
    assert.match(await refused('screenshot', { max_width: 8 }), /payload\.max_width: must be a whole number, 16 or more/);
    assert.match(await refused('zoom', { x: 0, y: 0, width: 0, height: 10 }), /payload\.width: must be a whole number, 1 or more/);
    assert.match(await refused('teleport', {}), /unknown command type "teleport": this agent knows screenshot, .*zoom/);
  });
});

describe('the runner reports the screen', () => {
  /** A driver whose screen is `screen`; screenshots show it as it is then. */
  function screenDriver(screen: Size) {
    const shot = (): Screenshot => ({
      png: Buffer.alloc(0),
      width: screen.width,
      height: screen.height,
      screenWidth: screen.width,
      screenHeight: screen.height,
      scale: 1,
    });
    return { name: 'test', screenSize: async () => ({ ...screen }), screenshot: async () => shot() } as unknown as Driver;
  }

  test('at start, and again only when a screenshot shows another size; a failed report is retried after the next poll', async () => {
    const screen = { width: 1600, height: 1000 };
    const reported: Size[] = [];
    const batches = [
      [{ command_id: 'a', type: 'screenshot', payload: {} }],
      'resize',
      [{ command_id: 'b', type: 'screenshot', payload: {} }],
      [],
      'stop',
    ];
    let failNextReport = true;
    const runner = new Runner({
      api: {
        poll: async () => {
          const next = batches.shift();
          if (next === 'resize') {
            screen.width = 1280;
            screen.height = 800;
            return [];
          }
          if (next === 'stop' || next === undefined) runner.stop();
          return Array.isArray(next) ? next : [];
        },
        postResult: async () => undefined,
        reportScreen: async (s) => {
          if (failNextReport) {
            failNextReport = false;
            throw new TypeError('fetch failed');
          }
          reported.push(s);
        },
      },
      driver: screenDriver(screen),
      log: () => undefined,
    });
    await runner.run();
    // Start: failed (server down), retried after the first poll; the resize shows in command b's screenshot.
    assert.deepEqual(reported, [
      { width: 1600, height: 1000 },
      { width: 1280, height: 800 },
    ]);
  });

  test('without a display the runner still polls, and says why it has no screen', async () => {
    const lines: string[] = [];
    const runner = new Runner({
      api: {
        poll: async () => {
          runner.stop();
          return [];
        },
        postResult: async () => undefined,
        reportScreen: async () => assert.fail('nothing to report'),
      },
      driver: {
        screenSize: async () => {
          throw new Error('DISPLAY is not set');
        },
      } as unknown as Driver,
      log: (line) => lines.push(line),
    });
    await runner.run();
    assert.ok(lines.includes('cannot read the screen size: DISPLAY is not set'), lines.join('\n'));
  });
});
