// SQLite's newest-first walks (the common words' window, the newest page) check the time bounds in
// the recency indexes: half of a mind expired or past costs no read of those rows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Knex } from 'knex';
import { filterConditions } from '../src/memories/recall-filter.js';
import { useService } from './harness.js';

describe('memories over time: the recency walks on SQLite', () => {
  const svc = useService();

  test('the window of a word and a category, and of every category, walks an index holding the time bounds', async (t) => {
    if (!svc.ctx.dialect.inProcess) return t.skip('SQLite only: PostgreSQL ranks through its own indexes');
    const { mindId } = await svc.mind();
    const now = new Date().toISOString();
    for (const category of ['note', undefined] as const) {
      const params: Knex.RawBinding[] = [];
      const conditions = filterConditions({ words: [], tags: [], category, notExpiredAt: now, holdsAt: now }, 'm', params);
      // The walk of search/fts5-engine.ts's window, as the recall runs it.
      const walk = `SELECT m.seq, m.updated_at, m.id FROM memories m WHERE m.mind_id = ? AND ${conditions.join(' AND ')}
        ORDER BY m.updated_at DESC, m.id DESC LIMIT 400`;
      const plan = (await svc.ctx.db.raw(`EXPLAIN QUERY PLAN ${walk}`, [mindId, ...params])) as Array<{ detail: string }>;
      const text = plan.map((row) => row.detail).join('\n');
      assert.match(text, /USING COVERING INDEX memories_mind(_category)?_recency/, text);
      assert.doesNotMatch(text, /TEMP B-TREE/, text);
    }
  });
});
