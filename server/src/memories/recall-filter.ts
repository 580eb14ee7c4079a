import type { Memory, MemoryCategory } from '@mindservice/contract';
import type { Knex } from 'knex';

/** A verified memory's relevance is multiplied by this, so it outranks an equal unverified one. */
export const VERIFIED_BOOST = 1.5;

/** Where the previous page ended, in the page order (score, then updated_at, then id, all descending). */
export interface PagePosition {
  score: number;
  updatedAt: string;
  id: string;
}

/** After `after` in newest-first order (updated_at, then id), on `alias`: the condition, its bindings pushed to `params`. */
export function olderThan(alias: string, after: PagePosition, params: unknown[]): string {
  params.push(after.updatedAt, after.updatedAt, after.id);
  return `(${alias}.updated_at < ? OR (${alias}.updated_at = ? AND ${alias}.id < ?))`;
}

export interface RecallFilter {
  /** Lower-case words to search for; empty lists by recency. */
  words: string[];
  category?: MemoryCategory;
  key?: string;
  /** Only keys starting with it, every character compared as is. */
  keyPrefix?: string;
  tags: string[];
  verified?: boolean;
  /** ISO timestamp: only memories changed at or after it. */
  since?: string;
  /** ISO timestamp (now): memories that expired by then are gone. */
  notExpiredAt?: string;
  /** ISO timestamp: only memories whose fact held then; undefined for every one (`include_past`). */
  holdsAt?: string;
  /** What the search asked (`as_of`, `include_past`), for the cursor's fingerprint: holdsAt moves with the clock. */
  asOf?: string;
  includePast?: boolean;
}

/** `alias` has not expired at `now` (an ISO timestamp): the condition, its binding pushed to `params`. */
export function notExpired(alias: string, now: string, params: Knex.RawBinding[]): string {
  params.push(now);
  return `(${alias}.expires_at IS NULL OR ${alias}.expires_at > ?)`;
}

/** `alias`'s fact held at `at`: valid_from <= at < valid_to, a missing bound open. */
export function holdsAt(alias: string, at: string, params: Knex.RawBinding[]): string {
  params.push(at, at);
  return `(${alias}.valid_from IS NULL OR ${alias}.valid_from <= ?) AND (${alias}.valid_to IS NULL OR ${alias}.valid_to > ?)`;
}

export interface RecallRow {
  memory: Memory;
  score: number;
}

/**
 * The recall filters as SQL conditions on `alias`: a memories row, or its memories_rank copy (seq,
 * id, category, verified, updated_at and the time bounds; the key is then looked up in memories).
 * Credentials only when asked for by category. Appends their bindings to `params`.
 */
export function filterConditions(filter: RecallFilter, alias: string, params: Knex.RawBinding[], rowHasKey = true): string[] {
  const conditions = [filter.category ? `${alias}.category = ?` : `${alias}.category != 'credentials'`];
  if (filter.category) params.push(filter.category);
  if (filter.key !== undefined) {
    conditions.push(rowHasKey ? `${alias}."key" = ?` : `EXISTS (SELECT 1 FROM memories k WHERE k.seq = ${alias}.seq AND k."key" = ?)`);
    params.push(filter.key);
  }
  if (filter.keyPrefix !== undefined) {
    // SUBSTR counts characters (code points) on both databases; LIKE would need its wildcards escaped.
    const startsWith = `SUBSTR(%s."key", 1, ?) = ?`;
    conditions.push(
      rowHasKey
        ? startsWith.replace('%s', alias)
        : `EXISTS (SELECT 1 FROM memories k WHERE k.seq = ${alias}.seq AND ${startsWith.replace('%s', 'k')})`,
    );
    params.push([...filter.keyPrefix].length, filter.keyPrefix);
  }
  if (filter.verified !== undefined) {
    conditions.push(`${alias}.verified = ?`);
    params.push(filter.verified);
  }
  if (filter.since) {
    conditions.push(`${alias}.updated_at >= ?`);
    params.push(filter.since);
  }
  if (filter.notExpiredAt) conditions.push(notExpired(alias, filter.notExpiredAt, params));
  if (filter.holdsAt) conditions.push(holdsAt(alias, filter.holdsAt, params));
  for (const tag of new Set(filter.tags)) {
    conditions.push(`EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_id = ${alias}.id AND t.tag = ?)`);
    params.push(tag);
  }
  return conditions;
}

/** The mind and the filters on a query over `memories as m`. */
export function applyFilters(query: Knex.QueryBuilder, mindId: string, filter: RecallFilter): Knex.QueryBuilder {
  const params: Knex.RawBinding[] = [];
  const conditions = filterConditions(filter, 'm', params);
  return query.where('m.mind_id', mindId).whereRaw(conditions.join(' AND '), params);
}
