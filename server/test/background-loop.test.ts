// The one wake / timer / stop loop of the background workers (mind purge, webhook deliveries,
// embeddings, command sweep), with real timers: what each of them relies on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BackgroundLoop, type BackgroundLoopOptions } from '../src/lib/background-loop.js';

/** A loop whose passes run `next` (in turn) and are counted; `errors` collects what it logged. */
function loopOf(next: Array<() => Promise<number | null>>, options: Partial<BackgroundLoopOptions> = {}) {
  const passes: number[] = [];
  const errors: Array<{ err: unknown; msg: string }> = [];
  const started = Date.now();
  const loop = new BackgroundLoop({
    step: () => {
      passes.push(Date.now() - started);
      return (next[passes.length - 1] ?? (async () => null))();
    },
    log: { error: (obj, msg) => errors.push({ err: (obj as { err: unknown }).err, msg }) },
    failure: 'test loop failed',
    retryMs: 40,
    ...options,
  });
  return { loop, passes, errors };
}

/** A promise and the function that settles it: a pass that lasts until the test says. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

async function until(condition: () => boolean, what: string) {
  const deadline = Date.now() + 2000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

describe('background loop', () => {
  test('a pass runs on wake and again after the sleep it asked for; null sleeps until the next wake', async () => {
    const { loop, passes } = loopOf([async () => 30, async () => null, async () => null]);
    loop.wake();
    assert.equal(passes.length, 1, 'wake() starts a pass at once');
    await until(() => passes.length === 2, 'the pass after the sleep');
    assert.ok(passes[1]! >= 25, `after about 30 ms: ${passes[1]}`);
    await sleep(80);
    assert.equal(passes.length, 2, 'null: no pass without a wake');
    loop.wake();
    assert.equal(passes.length, 3);
    await loop.stop();
  });

  test('wakes during a pass bring one more pass right after it, not one each', async () => {
    const first = gate();
    const { loop, passes } = loopOf([() => first.opened.then(() => 5_000)]);
    loop.wake();
    assert.equal(loop.wakePending, false);
    loop.wake();
    loop.wake();
    loop.wake();
    assert.equal(loop.wakePending, true);
    first.open();
    await until(() => passes.length === 2, 'the pass the wakes asked for');
    await sleep(50);
    assert.equal(passes.length, 2);
    await loop.stop();
  });

  test('a pass that throws is logged, the loop tries again after retryMs and goes on', async () => {
    const failure = new Error('database is locked');
    const { loop, passes, errors } = loopOf([
      async () => {
        throw failure;
      },
      async () => 20,
      async () => null,
    ]);
    loop.wake();
    await until(() => passes.length === 3, 'the retry and the pass after it');
    assert.deepEqual(errors, [{ err: failure, msg: 'test loop failed' }]);
    assert.ok(passes[1]! - passes[0]! >= 35, `the retry came after retryMs (40): ${passes.join(', ')}`);
    await loop.stop();
  });

  test('stop() waits for the pass in flight; no pass starts after it, from its timer or a wake', async () => {
    const first = gate();
    const { loop, passes, errors } = loopOf([
      () =>
        first.opened.then(() => {
          throw new Error('cut short by the stop');
        }),
    ]);
    loop.wake();
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await sleep(20);
    assert.equal(stopped, false, 'still waiting for the pass');
    assert.equal(loop.stopped, true, 'the pass can see the stop');
    first.open();
    await stopping;
    loop.wake();
    await sleep(80);
    assert.deepEqual(passes.length, 1);
    assert.deepEqual(errors, [], 'an error of a pass that a stop ended is not logged');
  });

  test('wake(delay) keeps a pass due sooner', async () => {
    const { loop, passes } = loopOf([]);
    loop.wake(20);
    loop.wake(1_000);
    await until(() => passes.length === 1, 'the sooner pass');
    assert.ok(passes[0]! < 500, `at about 20 ms: ${passes[0]}`);
    await loop.stop();
  });

  test('while acceptsWake answers false, wakes are ignored, also those that came during a pass', async () => {
    let accepting = true;
    const first = gate();
    const { loop, passes } = loopOf(
      [
        () =>
          first.opened.then(() => {
            accepting = false; // as the embedding worker starts a back-off
            return 60;
          }),
      ],
      { acceptsWake: () => accepting },
    );
    loop.wake();
    loop.wake(); // during the pass: dropped, the pass ends in a back-off
    first.open();
    await sleep(20);
    loop.wake();
    assert.equal(passes.length, 1, 'no pass before the back-off ends');
    await until(() => passes.length === 2, 'the pass after the back-off');
    assert.ok(passes[1]! >= 55, `after the back-off (60 ms): ${passes[1]}`);
    await loop.stop();
  });
});
