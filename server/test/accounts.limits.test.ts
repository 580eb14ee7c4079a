// Failed logins are limited per account and per client address (DESIGN section 13): guessing
// passwords is slow, and a correct password from elsewhere still gets in.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../src/lib/config.js';
import { clientAddressKey } from '../src/http/rate-limit.js';
import { freshPostgresSchema, startService, TEST_DATABASE_URL, TestClock, type TestService } from './harness.js';

const WINDOW_MS = 15 * 60_000;
const PASSWORD = 'correct horse';

/** A 429 as the spec's error object, with Retry-After (seconds, within the window) and a message saying when. */
function assertLimited(res: { status: number; headers: Record<string, string>; body: Record<string, unknown> }, what: RegExp) {
  assert.equal(res.status, 429, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'docs', 'error', 'message', 'statusCode']);
  assert.equal(res.body.statusCode, 429);
  assert.equal(res.body.error, 'Too Many Requests');
  assert.equal(res.body.code, 'login_attempts_exceeded');
  assert.match(res.body.message as string, what);
  assert.match(res.body.message as string, /try again in \d+ (seconds?|minutes?)/i);
  const retryAfter = Number(res.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_MS / 1000, `Retry-After ${res.headers['retry-after']}`);
}

describe('failed logins', () => {
  let svc: TestService;
  const clock = new TestClock();
  let next = 0;
  /** A client address no other test uses (TRUST_PROXY=1: the app reads it from X-Forwarded-For). */
  const address = () => `198.51.100.${++next}`;
  const login = (from: string, email: string, password: string) =>
    svc.http.post('/login').set('X-Forwarded-For', from).send({ email, password });

  before(async () => {
    svc = await startService({ TRUST_PROXY: '1' }, { clock });
  });
  after(() => svc.stop());

  test('the 11th failed login for one account in 15 minutes is 429, from any address, even with the right password; after the window it works', async () => {
    const { email } = await svc.user();
    for (let i = 0; i < 10; i++) assert.equal((await login(address(), email, `wrong-${i}`)).status, 401);
    assertLimited(await login(address(), email, 'wrong-again'), /failed logins for this account/);
    // While the account is closed, the right password is refused too: otherwise the answer would tell a guesser when it guessed right.
    const closed = await login(address(), email.toUpperCase(), PASSWORD);
    assertLimited(closed, /account/);
    assert.ok(Number(closed.headers['retry-after']) > 60);

    clock.advance(WINDOW_MS + 1000);
    assert.equal((await login(address(), email, PASSWORD)).status, 200);
  });

  test('an unknown email is counted the same as a known one (the limit does not reveal which accounts exist)', async () => {
    const email = `nobody-${Date.now()}@example.com`;
    for (let i = 0; i < 10; i++) assert.equal((await login(address(), email, 'wrong')).status, 401);
    assertLimited(await login(address(), email, 'wrong'), /account/);
  });

  test('concurrent guesses cannot overshoot: 20 at once at one account give 10 answers 401 and 10 answers 429', async () => {
    const { email } = await svc.user();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login(address(), email, `wrong-${i}`)));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(10).fill(429)]);
  });

  test('the 31st failure from one address over different accounts is 429; another address still logs in, and its success resets nothing', async () => {
    const attacker = address();
    const { email } = await svc.user();
    // 30 failures: 5 on a real account (under its limit of 10), 25 on accounts that do not exist.
    for (let i = 0; i < 5; i++) assert.equal((await login(attacker, email, 'wrong')).status, 401);
    for (let i = 0; i < 25; i++) assert.equal((await login(attacker, `guess-${i}-${Date.now()}@example.com`, 'wrong')).status, 401);
    assertLimited(await login(attacker, `fresh-${Date.now()}@example.com`, 'wrong'), /failed logins from this address/);
    assertLimited(await login(attacker, email, PASSWORD), /address/);

    // The real user, elsewhere: the account has 5 failures, under its limit.
    assert.equal((await login(address(), email, PASSWORD)).status, 200);
    assertLimited(await login(attacker, email, PASSWORD), /address/);

    clock.advance(WINDOW_MS + 1000);
    assert.equal((await login(attacker, email, PASSWORD)).status, 200);
  });

  test('successful logins are not failures: 40 in a row and 16 at once from one address all work, and do not use up the failures allowed', async () => {
    const from = address();
    const { email } = await svc.user();
    for (let i = 0; i < 40; i++) assert.equal((await login(from, email, PASSWORD)).status, 200);
    // More at once than the account's limit: none has failed, so none is refused.
    const together = await Promise.all(Array.from({ length: 16 }, () => login(from, email, PASSWORD)));
    assert.deepEqual(
      together.map((r) => r.status),
      Array(16).fill(200),
    );
    for (let i = 0; i < 10; i++) assert.equal((await login(from, email, 'wrong')).status, 401);
    assertLimited(await login(from, email, 'wrong'), /account/);
  });

  test('requests that fail validation are not counted (they never reach the password check)', async () => {
    const from = address();
    const { email } = await svc.user();
    for (let i = 0; i < 35; i++) assert.equal((await svc.http.post('/login').set('X-Forwarded-For', from).send({ email })).status, 400);
    assert.equal((await login(from, email, PASSWORD)).status, 200);
    for (let i = 0; i < 10; i++) assert.equal((await login(from, email, 'wrong')).status, 401);
    assertLimited(await login(from, email, 'wrong'), /account/);
  });
});

describe('failed logins: settings', () => {
  test('defaults: 10 per account and 30 per address in 15 minutes, install codes 30 per address in 15 minutes', () => {
    const config = loadConfig({});
    assert.equal(config.loginMaxFailuresPerAccount, 10);
    assert.equal(config.loginMaxFailuresPerAddress, 30);
    assert.equal(config.loginFailureWindowMs, WINDOW_MS);
    assert.equal(config.installCodeMaxFailuresPerAddress, 30);
    assert.equal(config.installCodeFailureWindowMs, WINDOW_MS);
    assert.ok(config.passwordThreads >= 1 && config.passwordThreads <= 2);
  });

  test('each can be set; bad values are refused naming the variable', () => {
    const config = loadConfig({
      MIND_LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      MIND_LOGIN_MAX_FAILURES_PER_ADDRESS: '100',
      MIND_LOGIN_FAILURE_WINDOW: '1h',
      MIND_INSTALL_CODE_MAX_FAILURES_PER_ADDRESS: '5',
      MIND_INSTALL_CODE_FAILURE_WINDOW: '90s',
      MIND_PASSWORD_THREADS: '4',
    });
    assert.equal(config.loginMaxFailuresPerAccount, 3);
    assert.equal(config.loginMaxFailuresPerAddress, 100);
    assert.equal(config.loginFailureWindowMs, 3_600_000);
    assert.equal(config.installCodeMaxFailuresPerAddress, 5);
    assert.equal(config.installCodeFailureWindowMs, 90_000);
    assert.equal(config.passwordThreads, 4);
    for (const [name, value] of [
      ['MIND_LOGIN_MAX_FAILURES_PER_ACCOUNT', '0'],
      ['MIND_LOGIN_MAX_FAILURES_PER_ADDRESS', 'many'],
      ['MIND_LOGIN_FAILURE_WINDOW', '0s'],
      ['MIND_INSTALL_CODE_FAILURE_WINDOW', 'soon'],
      ['MIND_PASSWORD_THREADS', '0'],
    ]) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (err: Error) => err instanceof ConfigError && err.message.includes(name!),
        name,
      );
    }
  });

  test('a smaller limit and window take effect', async () => {
    const clock = new TestClock();
    const svc = await startService({ MIND_LOGIN_MAX_FAILURES_PER_ACCOUNT: '2', MIND_LOGIN_FAILURE_WINDOW: '1m' }, { clock });
    try {
      const { email } = await svc.user();
      for (let i = 0; i < 2; i++) await svc.http.post('/login').send({ email, password: 'wrong' }).expect(401);
      const limited = await svc.http.post('/login').send({ email, password: 'wrong' }).expect(429);
      assert.ok(Number(limited.headers['retry-after']) <= 60);
      clock.advance(60_001);
      await svc.http.post('/login').send({ email, password: PASSWORD }).expect(200);
    } finally {
      await svc.stop();
    }
  });
});

describe('client addresses for the limits', () => {
  test('IPv4 as it is (also IPv4-mapped IPv6); IPv6 by its /64, which one subscriber usually holds whole', () => {
    assert.equal(clientAddressKey('203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddressKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
    assert.equal(clientAddressKey('2001:db8:1:2::1'), '2001:db8:1:2::/64');
    assert.equal(clientAddressKey('2001:0DB8:0001:0002::1%eth0'), '2001:db8:1:2::/64');
    assert.equal(clientAddressKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(clientAddressKey('::1'), '0:0:0:0::/64');
    assert.equal(clientAddressKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
    assert.equal(clientAddressKey(undefined), 'unknown');
  });
});

// Instances sharing PostgreSQL share the counts: a guesser cannot multiply its guesses by spreading them.
describe('failed logins across instances', { skip: TEST_DATABASE_URL ? false : 'needs PostgreSQL (MIND_TEST_DATABASE_URL)' }, () => {
  let a: TestService;
  let b: TestService;
  let dropSchema = async () => {};
  const dirs: string[] = [];
  before(async () => {
    const schema = await freshPostgresSchema(TEST_DATABASE_URL!);
    dropSchema = schema.drop;
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'mind-limits-'));
      dirs.push(dir);
      return { DATABASE_URL: schema.url, MIND_DATA_DIR: dir, TRUST_PROXY: '1' };
    };
    a = await startService(env());
    b = await startService(env());
  });
  after(async () => {
    await a?.stop();
    await b?.stop();
    await dropSchema();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('failures on instance A count on instance B, per account and per address', async () => {
    const { email } = await a.user();
    const login = (svc: TestService, from: string, mail: string) =>
      svc.http.post('/login').set('X-Forwarded-For', from).send({ email: mail, password: 'wrong' });
    for (let i = 0; i < 10; i++) assert.equal((await login(i % 2 ? a : b, `192.0.2.${i}`, email)).status, 401);
    assertLimited(await login(b, '192.0.2.100', email), /account/);
    assertLimited(await login(a, '192.0.2.101', email), /account/);

    for (let i = 0; i < 30; i++) assert.equal((await login(i % 2 ? a : b, '192.0.2.200', `x${i}@example.com`)).status, 401);
    assertLimited(await login(a, '192.0.2.200', 'y@example.com'), /address/);
    assertLimited(await login(b, '192.0.2.200', 'y@example.com'), /address/);
  });
});
