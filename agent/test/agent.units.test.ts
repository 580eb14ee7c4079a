// The agent's pure parts: key names, wheel steps, PNG sizes, the config file, the command line's answers
// to bad input. No X server needed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { EXIT, main } from '../src/cli.js';
import { configPath, loadConfig, saveConfig } from '../src/config.js';
import { keyCombination, keysym, UnknownKeyError } from '../src/drivers/keys.js';
import { typingPlan, wheelSteps } from '../src/drivers/x11.js';
import { pngSize } from '../src/png.js';

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

describe('typing plan', () => {
  test('plain text is typed fast in one go', () => {
    assert.deepEqual(typingPlan('hello world\n-n', 5), [{ text: 'hello world\n-n', delayMs: 5 }]);
  });

  test('other characters are typed slower, in their own runs', () => {
    assert.deepEqual(typingPlan('héllo ✓', 5), [
      { text: 'h', delayMs: 5 },
      { text: 'é', delayMs: 200 },
      { text: 'llo ', delayMs: 5 },
      { text: '✓', delayMs: 200 },
    ]);
  });

  test('long or much mixed texts stay within about 30 s', () => {
    const han = '漢'.repeat(3000);
    assert.deepEqual(typingPlan(han, 5), [{ text: han, delayMs: 10 }]);
    const mixed = 'aé'.repeat(100);
    assert.deepEqual(typingPlan(mixed, 5), [{ text: mixed, delayMs: 200 }]);
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
