import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { runSql } from '../src/db/database.js';
import { inLightTransaction } from '../src/db/postgres-light-transaction.js';
import { TEST_DATABASE_URL, useService } from './harness.js';

// The memory write batch's transaction on PostgreSQL (db/postgres-light-transaction.ts): one transactor
// per pooled connection instead of knex's per transaction. It must keep every promise of a knex
// transaction the batch relies on.
describe('the light transaction (PostgreSQL)', { skip: TEST_DATABASE_URL ? false : 'PostgreSQL only (MIND_TEST_DATABASE_URL)' }, () => {
  const svc = useService({ MIND_EMBEDDINGS: 'off' });
  const db = () => svc.ctx.db;
  const names = async () => (await db()('light_rows').orderBy('name').pluck('name')) as string[];

  before(async () => {
    await db().raw('CREATE TABLE light_rows (name text PRIMARY KEY, pair text UNIQUE DEFERRABLE INITIALLY DEFERRED)');
  });

  test('commits what its work wrote, through the query builder and through runSql, and says so', async () => {
    let committed: Promise<unknown> | undefined;
    const value = await inLightTransaction(db(), async (trx) => {
      committed = trx.executionPromise;
      await trx('light_rows').insert({ name: 'a' });
      await runSql(trx, 'INSERT INTO light_rows (name) VALUES (?)', ['b']);
      assert.deepEqual(await trx('light_rows').whereIn('name', ['a', 'b']).orderBy('name').pluck('name'), ['a', 'b'], 'its own writes');
      return 42;
    });
    assert.equal(value, 42);
    await committed;
    assert.deepEqual(await names(), ['a', 'b']);
  });

  test('rolls back when its work throws, and throws that error', async () => {
    let outcome: Promise<unknown> | undefined;
    const failure = new Error('the work failed');
    await assert.rejects(
      inLightTransaction(db(), async (trx) => {
        outcome = trx.executionPromise;
        await trx('light_rows').insert({ name: 'c' });
        throw failure;
      }),
      (err) => err === failure,
    );
    await assert.rejects(outcome!);
    assert.deepEqual(await names(), ['a', 'b']);
  });

  test('a statement that fails in it fails the transaction; the connection serves the next one', async () => {
    await assert.rejects(
      inLightTransaction(db(), async (trx) => {
        await trx('light_rows').insert({ name: 'd' });
        await runSql(trx, 'INSERT INTO light_rows (name) VALUES (?)', ['a']); // taken
      }),
      /duplicate key/,
    );
    // More transactions than the pool has connections: each got its connection back, none is left aborted.
    for (let i = 0; i < 30; i++) await inLightTransaction(db(), (trx) => runSql(trx, 'SELECT 1', []));
    assert.deepEqual(await names(), ['a', 'b']);
  });

  test('a COMMIT that fails (a deferred constraint) throws, and nothing of the transaction stays', async () => {
    let outcome: Promise<unknown> | undefined;
    await assert.rejects(
      inLightTransaction(db(), async (trx) => {
        outcome = trx.executionPromise;
        await trx('light_rows').insert([
          { name: 'e', pair: 'same' },
          { name: 'f', pair: 'same' },
        ]);
      }),
      /duplicate key/,
    );
    await assert.rejects(outcome!);
    assert.deepEqual(await names(), ['a', 'b']);
    await inLightTransaction(db(), (trx) => trx('light_rows').insert({ name: 'g' }));
    assert.deepEqual(await names(), ['a', 'b', 'g']);
  });

  test('its transactor refuses every query once the transaction ended', async () => {
    let kept: Parameters<Parameters<typeof inLightTransaction>[1]>[0] | undefined;
    await inLightTransaction(db(), async (trx) => {
      kept = trx;
    });
    assert.equal(kept!.isCompleted(), true);
    await assert.rejects(kept!('light_rows').insert({ name: 'late' }), /already complete/);
    await assert.rejects(runSql(kept!, 'INSERT INTO light_rows (name) VALUES (?)', ['late']), /already complete/);
    assert.deepEqual(await names(), ['a', 'b', 'g']);
  });

  test('a nested transaction is a savepoint: its rollback undoes only its own part', async () => {
    await inLightTransaction(db(), async (trx) => {
      await trx('light_rows').insert({ name: 'h' });
      await assert.rejects(
        trx.transaction(async (inner) => {
          await inner('light_rows').insert({ name: 'i' });
          throw new Error('inner failed');
        }),
        /inner failed/,
      );
    });
    assert.deepEqual(await names(), ['a', 'b', 'g', 'h']);
  });
});
