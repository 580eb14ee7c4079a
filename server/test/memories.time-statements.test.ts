import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

const require = createRequire(import.meta.url);

/**
 * Counts the statements the database drivers run (every one: knex's and the prepared ones, BEGIN
 * and COMMIT included) while `fn` runs.
 */
async function statements(fn: () => Promise<unknown>): Promise<number> {
  let n = 0;
  const Sqlite = require('better-sqlite3');
  const probe = new Sqlite(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1'));
  probe.close();
  const pgProto = require('pg').Client.prototype;
  const wrapped: Array<[object, string, unknown]> = [];
  const wrap = (proto: Record<string, unknown>, name: string) => {
    const original = proto[name] as (...args: unknown[]) => unknown;
    wrapped.push([proto, name, original]);
    proto[name] = function (this: unknown, ...args: unknown[]) {
      n++;
      return original.apply(this, args);
    };
  };
  for (const name of ['run', 'all', 'get', 'iterate']) wrap(statementProto, name);
  wrap(pgProto, 'query');
  try {
    await fn();
  } finally {
    for (const [proto, name, original] of wrapped) (proto as Record<string, unknown>)[name] = original;
  }
  return n;
}

describe('memories over time: what a write with supersedes costs', () => {
  const svc = useService();

  test('statements of POST /memory with supersedes against a plain one', async () => {
    const { auth } = await svc.mind();
    const post = (body: Record<string, unknown>) => svc.http.post('/memory').set(auth).send(body).expect(201);
    await post({ category: 'fact', content: 'warm up' });
    const plain: number[] = [];
    const superseding: number[] = [];
    for (let i = 0; i < 5; i++) {
      plain.push(await statements(() => post({ category: 'fact', content: `plain ${i}` })));
      const old = (await post({ category: 'fact', content: `old ${i}` })).body;
      superseding.push(await statements(() => post({ category: 'fact', content: `new ${i}`, supersedes: old.id })));
    }
    const [p, s] = [Math.min(...plain), Math.min(...superseding)];
    console.log(`statements: plain write ${p}, with supersedes ${s} (${svc.ctx.dialect.name})`);
    // The old memory's change is one UPDATE ... RETURNING (the check and the change at once); its
    // memory.updated event goes in the same insert, touch and webhooks' read as the successor's.
    assert.ok(s - p <= 1, `plain ${p}, with supersedes ${s}`);
  });
});
