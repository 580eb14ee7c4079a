import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Knex } from 'knex';
import { bearer, startService, type TestService } from './harness.js';

const WRITERS = 8;
const ROUNDS = 4;
/** The bound for DELETE /minds/:id with 8 writers (it took 1.5 s and more on PostgreSQL). */
const BOUND_MS = 1000;

/** Writes memories and tasks to the mind until the key stops working (or `stop()`). */
function startWriters(svc: TestService, mindKey: string) {
  let running = true;
  const statuses = new Map<number, number>();
  const writers = Array.from({ length: WRITERS }, async (_, w) => {
    for (let i = 0; running; i++) {
      const res =
        i % 2 === 0
          ? await svc.http
              .post('/memory')
              .set(bearer(mindKey))
              .send({ category: 'fact', content: `writer ${w} memory ${i}`, tags: ['t'] })
          : await svc.http
              .post('/mind/task')
              .set(bearer(mindKey))
              .send({ title: `writer ${w} task ${i}` });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 401) return;
    }
  });
  return {
    statuses,
    async stop() {
      running = false;
      await Promise.all(writers);
    },
  };
}

async function rowsLeft(db: Knex, mindId: string): Promise<Record<string, number>> {
  const left: Record<string, number> = {};
  for (const table of ['memories', 'memory_tags', 'tasks', 'events']) {
    const row = await db(table).where({ mind_id: mindId }).count<{ n: number | string }>({ n: '*' }).first();
    left[table] = Number(row?.n ?? 0);
  }
  left.minds = (await db('minds').where({ id: mindId })).length;
  return left;
}

describe('minds: deleting a mind while 8 clients write to it', () => {
  let svc: TestService;
  before(async () => {
    svc = await startService();
  });
  after(() => svc.stop());

  test('DELETE answers within 1 s each time, the key is 401 at once, and the purge leaves nothing', async () => {
    const { jwt } = await svc.user();
    const took: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { mindId, mindKey } = await svc.addMind(jwt, `busy ${round}`);
      const writers = startWriters(svc, mindKey);
      // The writers in full flow first.
      while ((writers.statuses.get(201) ?? 0) < 40) await new Promise((r) => setTimeout(r, 10));
      const started = Date.now();
      await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(204);
      took.push(Date.now() - started);
      await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(401);
      await svc.http.delete(`/minds/${mindId}`).set(bearer(jwt)).expect(404);
      await writers.stop();
      // A writer sees its request succeed (it began before the deletion) or its key refused, nothing else.
      assert.deepEqual(
        [...writers.statuses.keys()].filter((s) => s !== 201 && s !== 401),
        [],
        JSON.stringify([...writers.statuses]),
      );

      const deadline = Date.now() + 30_000;
      while ((await svc.ctx.db('minds').where({ id: mindId }).first('id')) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.deepEqual(await rowsLeft(svc.ctx.db, mindId), { memories: 0, memory_tags: 0, tasks: 0, events: 0, minds: 0 });
      await svc.http.get('/mind/tasks').set(bearer(mindKey)).expect(401);
    }
    assert.ok(
      took.every((ms) => ms < BOUND_MS),
      `DELETE /minds/:id took ${took.join(', ')} ms`,
    );
  });
});
