import { createHash } from 'node:crypto';
import type { Trx } from '../db/database.js';
import { newId } from '../lib/secrets.js';
import { mindOfRow, type TransferTable } from './store.js';

/**
 * An id for an imported row whose own id is taken by another mind: derived from the target mind
 * and the source id, so importing the same document into the same mind again finds the same rows.
 */
function derivedId(mindId: string, table: TransferTable, sourceId: string): string {
  const h = createHash('sha256').update(`${mindId}:${table}:${sourceId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Chooses the id of an imported row: its own id when that is this mind's row (matched) or free
 * (so a backup restored into its own mind keeps its ids); when another mind holds it, an id
 * derived from this mind and the source id. A row already written by this import is never matched twice.
 */
export class IdResolver {
  private readonly used = new Set<string>();

  constructor(
    private readonly trx: Trx,
    private readonly mindId: string,
  ) {}

  claim(id: string) {
    this.used.add(id);
  }

  claimed(id: string) {
    return this.used.has(id);
  }

  async resolve(table: TransferTable, sourceId: string): Promise<{ id: string; exists: boolean }> {
    if (!this.used.has(sourceId)) {
      const holder = await mindOfRow(this.trx, table, sourceId);
      if (holder === undefined) return { id: sourceId, exists: false };
      if (holder === this.mindId) return { id: sourceId, exists: true };
    }
    const derived = derivedId(this.mindId, table, sourceId);
    if (this.used.has(derived)) return { id: newId(), exists: false };
    return { id: derived, exists: (await mindOfRow(this.trx, table, derived)) === this.mindId };
  }
}
