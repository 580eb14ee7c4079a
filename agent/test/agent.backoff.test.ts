// The agent's pauses while the server is down (issue 30, point 8): with the defaults it is back within
// a few seconds of the server's return. It came back 50 s after a 25 s outage when the pauses grew to 30 s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Driver } from '../src/drivers/driver.js';
import { Runner } from '../src/runner.js';

const OUTAGE_MS = 25_000;
/** A few seconds: the longest pause the defaults may take. */
const CAP_MS = 5_000;

test('after a 25 s outage the agent polls again within the cap (5 s) of the server coming back', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 0; // the test's clock: advanced by each pause the runner takes
  let backAt: number | undefined;
  const lines: string[] = [];
  const runner = new Runner({
    api: {
      poll: async () => {
        if (now < OUTAGE_MS) throw new TypeError('fetch failed');
        backAt = now;
        runner.stop();
        return [];
      },
      postResult: async () => undefined,
      reportScreen: async () => undefined,
    },
    driver: {} as Driver,
    log: (line) => lines.push(line),
  });
  const done = runner.run();

  const pauses: number[] = [];
  while (backAt === undefined) {
    const seen = lines.length;
    while (lines.length === seen && backAt === undefined) await new Promise((resolve) => setImmediate(resolve));
    if (backAt !== undefined) break;
    const seconds = /retrying in (\d+\.\d) s$/.exec(lines.at(-1)!)?.[1];
    assert.ok(seconds, lines.at(-1));
    const ms = Math.round(Number(seconds) * 1000);
    pauses.push(ms);
    now += ms;
    t.mock.timers.tick(ms + 50); // the log rounds to a tenth of a second
  }
  await done;

  assert.ok(
    pauses.every((ms) => ms <= CAP_MS),
    `no pause over the cap: ${pauses.join(', ')}`,
  );
  assert.ok(pauses[0]! >= 700 && pauses[0]! <= 1000, `the first pause is about 1 s: ${pauses[0]}`);
  assert.ok(backAt - OUTAGE_MS <= CAP_MS, `back ${backAt - OUTAGE_MS} ms after the server (pauses ${pauses.join(', ')})`);
  assert.deepEqual(lines.slice(-2), ['connected to the server again', 'stopped']);
});
