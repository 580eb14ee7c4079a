// A mind's last_activity under concurrent writes (events/recorder.ts TOUCH_MIND): on PostgreSQL a
// write does not wait for another open write of the same mind to commit; the open one moves it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bearer, TEST_DATABASE_URL, useService } from './harness.js';

const POSTGRES_ONLY = { skip: TEST_DATABASE_URL ? false : 'PostgreSQL only (SQLite runs one write transaction at a time)' };

describe('minds: last_activity under concurrent writes', () => {
  const svc = useService();

  test(
    'a write does not wait for an open write of the same mind to commit; later writes move last_activity again',
    POSTGRES_ONLY,
    async () => {
      const { jwt, mindId, mindKey } = await svc.mind();
      const lastActivity = async () => {
        const res = await svc.http.get('/minds').set(bearer(jwt)).expect(200);
        return res.body.minds.find((m: { id: string }) => m.id === mindId).last_activity as string;
      };

      let held!: () => void;
      const holding = new Promise<void>((resolve) => (held = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let openAt = '';
      const open = svc.ctx.db.transaction(async (trx) => {
        openAt = (await svc.ctx.events.record(trx, mindId, 'task.created', { open: true })).createdAt;
        held();
        await released;
      });
      await holding;
      // Were the write to wait for the open transaction's row lock, it would answer only after this.
      const timer = setTimeout(release, 5000);
      const started = Date.now();
      const during = await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'while another write is open' });
      const took = Date.now() - started;
      clearTimeout(timer);
      release();
      await open;
      assert.equal(during.status, 201);
      assert.ok(took < 4000, `the write waited ${took} ms for the open transaction`);
      // The open transaction held the row: its time is the mind's last activity, not the later write's.
      assert.equal(await lastActivity(), openAt);
      assert.ok(openAt <= during.body.created_at);

      const after = await svc.http.post('/mind/task').set(bearer(mindKey)).send({ title: 'alone' }).expect(201);
      assert.ok((await lastActivity()) >= after.body.created_at, 'a write with no other open moves last_activity');
    },
  );
});
