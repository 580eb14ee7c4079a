import type { Memory } from '@mindservice/contract';
import { newId } from '../../src/lib/secrets.js';
import { Cipher } from '../../src/lib/cipher.js';
import { NO_TIME_BOUNDS } from '../../src/memories/rows.js';
import { MemoriesStore } from '../../src/memories/store.js';
import type { TestService } from '../harness.js';

/**
 * Stores notes straight through the store in one transaction (thousands of requests would take a test
 * seconds): one per item, a second apart from 2026-01-01, the last the newest. Answers them in order.
 */
export async function seedNotes(svc: TestService, mindId: string, items: Array<{ content: string; tags?: string[] }>): Promise<Memory[]> {
  const base = Date.parse('2026-01-01T00:00:00Z');
  const memories: Memory[] = items.map(({ content, tags = [] }, i) => {
    const at = new Date(base + i * 1000).toISOString();
    return {
      id: newId(),
      category: 'note',
      key: null,
      content,
      tags,
      verified: false,
      verified_at: null,
      source: null,
      created_at: at,
      updated_at: at,
      ...NO_TIME_BOUNDS,
    };
  });
  await svc.ctx.db.transaction((trx) => new MemoriesStore(Cipher.fromConfig(svc.ctx.config)).insertMany(trx, mindId, memories));
  return memories;
}
