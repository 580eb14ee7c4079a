import { createHash } from 'node:crypto';
import { ERROR_MESSAGES, type Memory } from '@mindservice/contract';
import { ApiError } from '../http/api-error.js';

/**
 * A memory's version as a strong ETag: a digest of every field a client sees, so two writes in the
 * same millisecond still differ, and a write that restores the same text gives the same version.
 */
export function memoryEtag(memory: Memory): string {
  const fields = [
    memory.id,
    memory.category,
    memory.key,
    memory.content,
    memory.tags,
    memory.source,
    memory.verified,
    memory.updated_at,
    memory.expires_at,
    memory.valid_from,
    memory.valid_to,
    memory.superseded_by,
  ];
  return `"${createHash('sha256').update(JSON.stringify(fields)).digest('hex').slice(0, 32)}"`;
}

/** `If-Match`: `*` or one of the listed ETags must be the memory's version; anything else changes nothing (412). */
export function assertVersion(memory: Memory, ifMatch: string | undefined): void {
  if (ifMatch === undefined) return;
  const current = memoryEtag(memory);
  const listed = ifMatch.split(',').map((tag) => tag.trim());
  if (listed.includes('*') || listed.includes(current)) return;
  throw ApiError.of(412, 'memory_changed', ERROR_MESSAGES.memoryChanged(ifMatch));
}

/** `If-None-Match: *` on a store: a key that exists is refused (412), not updated. */
export function keyExists(category: string, key: string): ApiError {
  return ApiError.of(412, 'memory_key_exists', ERROR_MESSAGES.memoryKeyExists(key, category));
}
