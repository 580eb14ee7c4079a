// Failed install-code registrations are limited per client address (DESIGN section 13): guessing
// codes is slow, and an agent elsewhere still registers.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startService, TestClock, type TestService } from './harness.js';
import { AGENT_INFO, installCode } from './computers/helpers.js';
import { INSTALL_CODE_ALPHABET } from '../src/computers/rules.js';

const WINDOW_MS = 15 * 60_000;
/** Well-formed codes nobody made (distinct for i < 961). */
const guess = (i: number) => `ZZZZ-ZZ${INSTALL_CODE_ALPHABET[i % 31]}${INSTALL_CODE_ALPHABET[Math.floor(i / 31) % 31]}`;

describe('computers: failed install-code registrations', () => {
  let svc: TestService;
  const clock = new TestClock();
  let next = 0;
  const address = () => `203.0.113.${++next}`;
  const register = (from: string, code: string) =>
    svc.http
      .post('/computers/register')
      .set('X-Forwarded-For', from)
      .send({ code, computer_name: 'pc', ...AGENT_INFO });

  before(async () => {
    svc = await startService({ TRUST_PROXY: '1' }, { clock });
  });
  after(() => svc.stop());

  test('the 31st failure from one address in 15 minutes is 429, even with a valid code; another address registers; after the window it works again', async () => {
    const { mindKey } = await svc.mind();
    const guesser = address();
    // Unknown, malformed and used codes all count.
    const used = await installCode(svc, mindKey);
    assert.equal((await register(address(), used)).status, 201);
    for (let i = 0; i < 28; i++) assert.equal((await register(guesser, guess(i))).status, 400);
    assert.equal((await register(guesser, 'nonsense')).status, 400);
    assert.equal((await register(guesser, used)).status, 400);

    const valid = await installCode(svc, mindKey);
    const limited = await register(guesser, valid);
    assert.equal(limited.status, 429, JSON.stringify(limited.body));
    assert.deepEqual(Object.keys(limited.body).sort(), ['code', 'docs', 'error', 'message', 'statusCode']);
    assert.equal(limited.body.error, 'Too Many Requests');
    assert.equal(limited.body.code, 'registration_attempts_exceeded');
    assert.match(limited.body.message, /failed registrations from this address.*try again in \d+ minutes/i);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter > 60 && retryAfter <= WINDOW_MS / 1000, `Retry-After ${limited.headers['retry-after']}`);

    // The refused attempt did not use the code: an agent elsewhere registers with it.
    assert.equal((await register(address(), valid)).status, 201);

    clock.advance(WINDOW_MS + 1000);
    assert.equal((await register(guesser, await installCode(svc, mindKey))).status, 201);
  });

  test('successful registrations are not failures, also many at once; the limit can be set', async () => {
    const small = await startService({
      TRUST_PROXY: '1',
      MIND_INSTALL_CODE_MAX_FAILURES_PER_ADDRESS: '3',
      MIND_INSTALL_CODE_FAILURE_WINDOW: '1m',
    });
    try {
      // The owner's JWT sets up the fleet (a Mind Key sets up MIND_MAX_COMPUTERS_PER_MIND at most).
      const { jwt } = await small.mind();
      const at = (code: string) =>
        small.http
          .post('/computers/register')
          .set('X-Forwarded-For', '203.0.113.250')
          .send({ code, computer_name: 'pc', ...AGENT_INFO });
      for (let i = 0; i < 5; i++) assert.equal((await at(await installCode(small, jwt))).status, 201);
      // More at once than the limit (a fleet set up by one script): none failed, none is refused.
      const codes = await Promise.all(Array.from({ length: 8 }, () => installCode(small, jwt)));
      assert.deepEqual(
        (await Promise.all(codes.map(at))).map((r) => r.status),
        Array(8).fill(201),
      );
      for (let i = 0; i < 3; i++) assert.equal((await at(guess(i))).status, 400);
      const limited = await at(guess(3));
      assert.equal(limited.status, 429);
      assert.ok(Number(limited.headers['retry-after']) <= 60);
    } finally {
      await small.stop();
    }
  });
});
