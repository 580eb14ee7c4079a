import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TestClock, useService } from './harness.js';

/** The time filters apply before ranking and paging: full pages, no repeats, every current memory once. */
describe('memories over time: paging through a mind where half is expired or past', () => {
  const clock = new TestClock();
  const svc = useService({}, { clock });

  test('keyword with words, recency without, a tags filter: no short page, no repeat, nothing expired or past', async () => {
    const { auth } = await svc.mind();
    const soon = new Date(clock.now().getTime() + 5_000).toISOString();
    const past = new Date(clock.now().getTime() - 86_400_000).toISOString();
    const current = new Map<string, string>();
    for (let i = 0; i < 64; i++) {
      // Of each four: two current, one expiring, one that held until yesterday.
      const kind = ['current', 'expired', 'current', 'past'][i % 4];
      const body = {
        category: 'note',
        content: `alpha ${i % 8 < 4 ? 'gamma' : 'delta'} note number ${i}${' beta'.repeat(i % 5)}`,
        tags: i % 8 < 4 ? ['x', 'gamma'] : ['x'],
        ...(kind === 'expired' ? { expires_at: soon } : kind === 'past' ? { valid_to: past } : {}),
      };
      clock.advance(10);
      const m = (await svc.http.post('/memory').set(auth).send(body).expect(201)).body;
      if (kind === 'current') current.set(m.id, body.content);
    }
    clock.advance(6_000);

    const searches: Array<Record<string, string>> = [
      { q: 'alpha', mode: 'keyword' },
      { q: 'gamma', mode: 'keyword' },
      { q: 'gamma beta', mode: 'keyword' },
      { q: 'beta' },
      {},
      { tags: 'x' },
      { tags: 'gamma' },
      { q: 'beta', tags: 'x', mode: 'keyword' },
    ];
    for (const search of searches) {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const query: Record<string, string | number> = { ...search, limit: 5, ...(cursor ? { cursor } : {}) };
        const page = (await svc.http.get('/memory/recall').set(auth).query(query).expect(200)).body as {
          memories: Array<{ id: string }>;
          next_cursor: string | null;
        };
        sizes.push(page.memories.length);
        seen.push(...page.memories.map((m) => m.id));
        cursor = page.next_cursor;
      } while (cursor);
      const label = JSON.stringify(search);
      assert.equal(new Set(seen).size, seen.length, `${label}: no repeats`);
      assert.ok(
        sizes.slice(0, -1).every((n) => n === 5),
        `${label}: every page but the last is full (${sizes.join(', ')})`,
      );
      const expected = [...current].filter(([, content]) => {
        const words = search.q?.split(' ') ?? [];
        const tagged = search.tags === 'gamma' ? content.includes('gamma') : true;
        // Keyword recall finds a memory holding any of the words.
        return tagged && (words.length === 0 || words.some((w) => content.includes(w)));
      });
      assert.deepEqual(seen.slice().sort(), expected.map(([id]) => id).sort(), `${label}: every current memory, nothing else`);
      assert.ok(seen.length >= 10, `${label}: several pages (${seen.length})`);
    }
  });
});
