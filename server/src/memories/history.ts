import type { Memory, MemoryHistory, MemoryVersion } from '@mindservice/contract';
import { z } from 'zod';
import type { Conn } from '../db/database.js';
import { cursorInteger, decodePageCursor, encodePageCursor, itemsWithinBytes } from '../http/cursor.js';
import { CHAIN_DEPTH, type MemoryHistoryStore } from './history-store.js';

const DEFAULT_LIMIT = 20;
const ROUTE = 'GET /memory/{id}/history';

/** Where the next page starts: after version `s` (-1: the versions are done) and chain depth `d` (null: the chain is done). */
const HistoryCursor = z
  .object({ s: cursorInteger(-1, Number.MAX_SAFE_INTEGER), d: cursorInteger(-CHAIN_DEPTH - 1, CHAIN_DEPTH).nullable() })
  .strict();
const FIRST_PAGE = { s: 0, d: -CHAIN_DEPTH - 1 };

/** The memory as it stands, the last of its versions. */
const currentVersion = (m: Memory): MemoryVersion => ({
  content: m.content,
  category: m.category,
  key: m.key,
  tags: m.tags,
  source: m.source,
  expires_at: m.expires_at,
  valid_from: m.valid_from,
  valid_to: m.valid_to,
  at: m.updated_at,
  replaced_at: null,
});

/**
 * One page of a memory's history: up to `limit` versions (the stored ones, then the memory as it
 * stands) and up to `limit` links of its chain, each list within half the page's byte bound.
 */
export async function historyPage(
  conn: Conn,
  history: MemoryHistoryStore,
  memory: Memory & { mindId: string },
  query: { limit?: number; cursor?: string },
  now: string,
  maxBytes: number,
): Promise<MemoryHistory> {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const at = query.cursor ? decodePageCursor(query.cursor, HistoryCursor, ROUTE) : FIRST_PAGE;
  const { mindId, id } = memory;

  let versions: Array<{ seq: number; version: MemoryVersion }> = [];
  if (at.s >= 0) {
    versions = await history.versions(conn, mindId, id, at.s, limit + 1);
    if (versions.length <= limit) versions.push({ seq: -1, version: currentVersion(memory) });
  }
  let links: Array<{ depth: number; link: MemoryHistory['chain'][number] }> = [];
  if (at.d !== null) links = await history.chain(conn, mindId, id, at.d, limit + 1, now);

  const shownVersions = Math.min(limit, itemsWithinBytes(versions, maxBytes / 2));
  const shownLinks = Math.min(limit, itemsWithinBytes(links, maxBytes / 2));
  const lastVersion = versions[shownVersions - 1];
  const nextSeq = shownVersions < versions.length && lastVersion ? lastVersion.seq : -1;
  const lastLink = links[shownLinks - 1];
  const nextDepth = shownLinks < links.length && lastLink ? lastLink.depth : null;
  const more = nextSeq >= 0 || nextDepth !== null;
  return {
    versions: versions.slice(0, shownVersions).map((v) => v.version),
    chain: links.slice(0, shownLinks).map((l) => l.link),
    next_cursor: more ? encodePageCursor({ s: nextSeq, d: nextDepth }) : null,
  };
}
