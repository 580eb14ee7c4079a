// Password hashing runs on worker threads (DESIGN section 13): logins at production cost leave the
// event loop free for every other request.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { performance, monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import bcrypt from 'bcryptjs';
import { PasswordHasher } from '../src/accounts/passwords.js';
import { startService, type TestService } from './harness.js';

describe('password hashing off the event loop', () => {
  let svc: TestService;
  let email = '';
  /** One cost-12 bcrypt on this machine right now, in ms. */
  let oneHashMs = 0;
  before(async () => {
    svc = await startService({ MIND_BCRYPT_COST: '12' });
    email = (await svc.user()).email;
    const started = performance.now();
    bcrypt.hashSync('calibration', 12);
    oneHashMs = performance.now() - started;
  });
  after(() => svc.stop());

  test('while 4 logins at cost 12 run, the event loop is mostly idle, and GET /health answers meanwhile', async (t) => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const busySince = performance.eventLoopUtilization();
    const logins = Promise.all([
      svc.http.post('/login').send({ email, password: 'correct horse' }).expect(200),
      svc.http.post('/login').send({ email, password: 'wrong horse 1' }).expect(401),
      svc.http.post('/login').send({ email, password: 'wrong horse 2' }).expect(401),
      svc.http.post('/login').send({ email: 'nobody@example.com', password: 'wrong horse' }).expect(401),
    ]);
    // Asked while the hashes run (4 of them take several hash times on 1-2 threads).
    await new Promise((r) => setTimeout(r, oneHashMs / 2));
    const started = performance.now();
    await svc.http.get('/health').expect(200);
    const healthMs = performance.now() - started;
    await logins;
    const busy = performance.eventLoopUtilization(busySince).utilization;
    delay.disable();
    t.diagnostic(
      `one hash ${oneHashMs.toFixed(0)} ms; event loop busy ${(busy * 100).toFixed(0)} % of the time, ` +
        `longest stall ${(delay.max / 1e6).toFixed(1)} ms; GET /health ${healthMs.toFixed(1)} ms`,
    );
    // On the event loop, bcryptjs hashes in 100 ms slices, one after another: the loop is busy nearly
    // all the time the logins take. Off it, the loop only reads and answers the requests. The share
    // holds on a loaded machine too, where a wall-clock threshold would not: both times stretch alike.
    assert.ok(busy < 0.5, `the event loop was busy ${(busy * 100).toFixed(0)} % of the time while the logins ran`);
    assert.ok(healthMs < oneHashMs, `GET /health took ${healthMs.toFixed(0)} ms (one hash takes ${oneHashMs.toFixed(0)} ms)`);
  });

  test('the hasher: at most `size` threads, hashes that bcryptjs verifies over the SHA-256 pre-hash, nothing left after close', async () => {
    const hasher = new PasswordHasher(4, 2);
    const long = 'p'.repeat(100);
    const hashes = await Promise.all([hasher.hash(long), hasher.hash('second'), hasher.hash('third')]);
    assert.equal(hasher.threadCount, 2);
    assert.match(hashes[0]!, /^\$2b\$04\$/);
    assert.equal(bcrypt.compareSync(createHash('sha256').update(long).digest('base64'), hashes[0]!), true);
    assert.equal(await hasher.check(long, hashes[0]!), true);
    assert.equal(await hasher.check(`${'p'.repeat(99)}q`, hashes[0]!), false);
    assert.equal(await hasher.check('second', hashes[0]!), false);
    assert.equal(await hasher.dummyHash(), await hasher.dummyHash());
    await hasher.close();
    assert.equal(hasher.threadCount, 0);
    await assert.rejects(hasher.hash('after'), /shutting down/);
  });
});
