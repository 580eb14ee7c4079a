// Computers under concurrency: the queue cap holds when requests race, on SQLite and on PostgreSQL
// (where queueing is one statement per request and many run at once).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, useService } from './harness.js';
import { mindWithComputer, queue } from './computers/helpers.js';

const CAP = 30;

describe('computers: the queue cap under concurrent requests', () => {
  const svc = useService({ MIND_MAX_QUEUED_COMMANDS_PER_COMPUTER: String(CAP) });

  test('20 requests at once with 10 places left queue exactly 10; the rest are 409', async () => {
    const { mindKey, jwt, computerId } = await mindWithComputer(svc);
    for (let i = 0; i < CAP - 10; i++) await queue(svc, mindKey, computerId, { type: 'move', payload: { x: i, y: i } });
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          svc.http
            .post(`/computers/${computerId}/commands`)
            .set(bearer(i % 2 ? mindKey : jwt))
            .send({ type: 'move', payload: { x: i, y: round } }),
        ),
      );
      const queued = await svc.ctx.db('commands').where({ computer_id: computerId, status: 'queued' }).count({ n: '*' }).first();
      assert.equal(Number(queued?.n), CAP, `round ${round}: ${Number(queued?.n)} queued against a cap of ${CAP}`);
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [...Array(10).fill(201), ...Array(10).fill(409)]);
      // Room for 10 again: cancel the 10 newest queued.
      const newest = await svc.ctx.db('commands').where({ computer_id: computerId, status: 'queued' }).orderBy('seq', 'desc').limit(10);
      for (const row of newest) await svc.http.delete(`/computers/${computerId}/commands/${row.id}`).set(bearer(jwt)).expect(200);
    }
  });
});
