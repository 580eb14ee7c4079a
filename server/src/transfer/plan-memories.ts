import type { Memory } from '@mindservice/contract';
import { REDACTED } from '../memories/service.js';
import { inChunks } from './chunks.js';
import type { ImportedMemory } from './document.js';
import { ImportIds } from './ids.js';
import { fetchAll, type ImportPlan, type MindLookup } from './import-plan.js';

const sameMemory = (a: Memory, b: Memory) =>
  (['category', 'key', 'content', 'source', 'expires_at', 'valid_from', 'valid_to', 'superseded_by'] as const).every(
    (f) => a[f] === b[f],
  ) && JSON.stringify(a.tags) === JSON.stringify(b.tags);

/** Whether the item's expiry has passed: such a memory would be gone at once, so it is not imported. */
const expired = (item: ImportedMemory, now: string) => typeof item.expires_at === 'string' && item.expires_at <= now;

/** A field the document carries, or (an older export without it) the row's own. */
const given = <T>(value: T | undefined, old: T | undefined | null): T | null => (value === undefined ? (old ?? null) : value);

/**
 * Plans the memories of an import (plan.ts has the rules of matching), in two passes: the first
 * decides which row each item writes, the second what it writes, now that `superseded_by` (the id
 * of another item) can name that item's row in this mind. A link between two rows the import
 * creates is written after both exist (`plan.memories.links`).
 */
export async function planMemories(
  mindId: string,
  items: ImportedMemory[],
  lookup: MindLookup,
  replace: boolean,
  now: string,
  plan: ImportPlan,
): Promise<void> {
  const ids = new ImportIds(mindId, 'memories', replace);
  /** The row each item (by its id in the document) writes. */
  const rowOf = new Map<string, string>();
  const created = new Set<string>();
  const decided: Array<{ item: ImportedMemory; old: Memory | undefined; id: string }> = [];

  await inChunks(items, async (chunk) => {
    ids.learn(await lookup.holders('memories', ids.candidates(chunk.map((item) => item.id))));
    const keyed = chunk.filter((m) => m.key !== null).map((m): [string, string] => [m.category, m.key!]);
    const byKey = replace ? new Map<string, string>() : await lookup.memoryKeys(keyed);
    const matched = chunk.map((item) => {
      // A redacted credential carries no secret: importing it would overwrite or invent "[redacted]".
      if (item.category === 'credentials' && item.content === REDACTED) return null;
      let id = item.key === null ? undefined : byKey.get(`${item.category}\u0000${item.key}`);
      if (id !== undefined && ids.isClaimed(id)) id = undefined;
      id ??= ids.ownRow(item.id);
      if (id !== undefined) ids.claim(id);
      return id;
    });
    const existing = await fetchAll(matched, (id) => lookup.memory(id));
    for (const [i, item] of chunk.entries()) {
      const matchedId = matched[i];
      if (matchedId === null || expired(item, now)) {
        plan.skipped.memories++;
        continue;
      }
      const old = existing.get(matchedId ?? '');
      const id = old ? old.id : ids.forNewRow(item.id);
      if (!old) created.add(id);
      rowOf.set(item.id, id);
      decided.push({ item, old, id });
    }
  });

  await inChunks(decided, (chunk) => {
    for (const { item, old, id } of chunk) {
      // A successor outside the document (or not imported) is no link in this mind.
      const successor = item.superseded_by == null ? item.superseded_by : (rowOf.get(item.superseded_by) ?? null);
      const times = {
        expires_at: given(item.expires_at, old?.expires_at),
        valid_from: given(item.valid_from, old?.valid_from),
        valid_to: given(item.valid_to, old?.valid_to),
        superseded_by: given(successor, old?.superseded_by),
      };
      const { category, key, content, tags, source } = item;
      let row: Memory;
      if (!old) {
        row = { ...item, id, ...times };
      } else {
        const target = { ...old, ...{ category, key, content, tags, source }, ...times };
        if (sameMemory(old, target)) {
          plan.skipped.memories++;
          continue;
        }
        const keepsVerification = old.content === content && old.category === category;
        row = {
          ...target,
          verified: keepsVerification && old.verified,
          verified_at: keepsVerification ? old.verified_at : null,
          updated_at: now,
        };
      }
      // Rows are written a piece at a time: one may name a row a later piece creates.
      const linkLater = row.superseded_by !== null && row.superseded_by !== old?.superseded_by && created.has(row.superseded_by);
      const written = linkLater ? { ...row, superseded_by: old?.superseded_by ?? null } : row;
      if (linkLater) plan.memories.links.push({ row, before: written });
      if (old) {
        plan.memories.update.push({ row: written, before: old });
        plan.updated.memories++;
      } else {
        plan.memories.create.push(written);
        plan.created.memories++;
      }
    }
  });
}
