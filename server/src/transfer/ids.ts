import { createHash } from 'node:crypto';
import { newId } from '../lib/secrets.js';
import type { TransferTable } from './store.js';

/**
 * The id an imported row takes in a mind when its own id is not one of that mind's rows: derived
 * from the mind and the source id, so importing the same document into the same mind again finds
 * the same rows, and never from what other minds hold (which ids exist elsewhere is not the
 * importer's business: the outcome of an import into one mind is the same whatever other minds hold).
 */
export function derivedId(mindId: string, table: TransferTable, sourceId: string): string {
  const h = createHash('sha256').update(`${mindId}:${table}:${sourceId}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The ids of one table during an import's planning: which of the mind's rows an item matches by id
 * (its own id, or the id an earlier import derived from it), and the id of a row it creates. A row
 * is matched or written by at most one item. What the planner has looked up is learnt piece by
 * piece (`learn`): for every item, who holds its id and its derived id.
 */
export class ImportIds {
  private readonly claimed = new Set<string>();
  /** Of the ids looked up: the mind's rows (before the import), and ids another mind holds. */
  private readonly own = new Set<string>();
  private readonly elsewhere = new Set<string>();

  /** With `replace` the mind's rows are deleted first, so a backup restored into its own mind keeps its ids. */
  constructor(
    private readonly mindId: string,
    private readonly table: TransferTable,
    private readonly replace: boolean,
  ) {}

  /** The ids to look up for these source ids: each, and the id derived from it. */
  candidates(sourceIds: string[]): string[] {
    return sourceIds.flatMap((id) => [id, derivedId(this.mindId, this.table, id)]);
  }

  /** Which mind holds each looked-up id that a row has. */
  learn(holders: Map<string, string>) {
    for (const [id, mindId] of holders) (mindId === this.mindId ? this.own : this.elsewhere).add(id);
  }

  claim(id: string) {
    this.claimed.add(id);
  }

  isClaimed(id: string) {
    return this.claimed.has(id);
  }

  /** The mind's row this source id names (its own id, or one derived from it) not yet matched; merge only. */
  ownRow(sourceId: string): string | undefined {
    if (this.replace) return undefined;
    return [sourceId, derivedId(this.mindId, this.table, sourceId)].find((id) => this.own.has(id) && !this.claimed.has(id));
  }

  /**
   * The id of a row this import creates for the source id (claimed at once): derived, never the
   * source id (which other minds may hold: keeping it only when free would tell whether they do).
   * Another mind holds a derived id only if it was chosen there on purpose, in a document imported
   * before ids were derived; such a row gets a fresh id rather than failing the import.
   */
  forNewRow(sourceId: string): string {
    const candidates = this.replace && this.own.has(sourceId) ? [sourceId] : [];
    candidates.push(derivedId(this.mindId, this.table, sourceId));
    const taken = (id: string) => this.claimed.has(id) || this.elsewhere.has(id) || (!this.replace && this.own.has(id));
    const id = candidates.find((c) => !taken(c)) ?? newId();
    this.claim(id);
    return id;
  }
}
