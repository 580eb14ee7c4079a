import type { Memory, MemoryCategory, MemoryVersion } from '@mindservice/contract';
import { ApiError } from '../http/api-error.js';
import { type Cipher, UnreadableCiphertext } from '../lib/cipher.js';

/** A row of `memories` as stored (PostgreSQL adds search_vector, written with the row: keyword-index-postgres.ts). */
export interface MemoryRow {
  seq: number;
  id: string;
  mind_id: string;
  category: MemoryCategory;
  key: string | null;
  content: string;
  content_encrypted: string | null;
  tags: string;
  verified: boolean | number;
  verified_at: string | null;
  source: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
  valid_from: string | null;
  valid_to: string | null;
  superseded_by: string | null;
}

export const COLUMNS = [
  'id',
  'mind_id',
  'category',
  'key',
  'content',
  'content_encrypted',
  'tags',
  'verified',
  'verified_at',
  'source',
  'created_at',
  'updated_at',
  'expires_at',
  'valid_from',
  'valid_to',
  'superseded_by',
] as const;

/** A memory's time fields when none is set: it never expires, always held and replaced nothing. */
export const NO_TIME_BOUNDS = { expires_at: null, valid_from: null, valid_to: null, superseded_by: null } as const;

/** The columns every read selects. */
export type ReadRow = Pick<MemoryRow, (typeof COLUMNS)[number]>;

/** The read columns with a table alias, for the query builder. */
export const prefixed = (alias: string) => COLUMNS.map((c) => `${alias}.${c}`);

/** The read columns of `memories m` in raw SQL (quoted: `key` is a keyword). */
export const SQLITE_COLUMNS = COLUMNS.map((c) => `m."${c}"`).join(', ');

/** A credentials memory's content is bound to its mind and id. */
const cipherBinding = (mindId: string, memoryId: string) => `${mindId}:${memoryId}`;
/** A version's: its memory and its own id, so it cannot pass for the memory or for another version. */
const versionBinding = (mindId: string, memoryId: string, versionId: string) => `${mindId}:${memoryId}:version:${versionId}`;

/** A row of `memory_versions`: the memory as it stood from `at` until `replaced_at`. */
export interface VersionRow {
  id: string;
  memory_id: string;
  mind_id: string;
  category: MemoryCategory;
  key: string | null;
  content: string;
  content_encrypted: string | null;
  tags: string;
  source: string | null;
  expires_at: string | null;
  valid_from: string | null;
  valid_to: string | null;
  at: string;
  replaced_at: string;
}

/** Row <-> API object. Knows the cipher, so credentials are encrypted on every write and decrypted on every read. */

export class MemoryRows {
  constructor(private readonly cipher: Cipher) {}

  toRow(mindId: string, memory: Memory): ReadRow {
    const secret = memory.category === 'credentials';
    return {
      id: memory.id,
      mind_id: mindId,
      category: memory.category,
      key: memory.key,
      content: secret ? '' : memory.content,
      content_encrypted: secret ? this.cipher.encrypt(memory.content, cipherBinding(mindId, memory.id)) : null,
      tags: JSON.stringify(memory.tags),
      verified: memory.verified,
      verified_at: memory.verified_at,
      source: memory.source,
      created_at: memory.created_at,
      updated_at: memory.updated_at,
      expires_at: memory.expires_at,
      valid_from: memory.valid_from,
      valid_to: memory.valid_to,
      superseded_by: memory.superseded_by,
    };
  }

  toMemory(row: ReadRow): Memory {
    return {
      id: row.id,
      category: row.category,
      key: row.key,
      content: row.content_encrypted === null ? row.content : this.decrypt(row.content_encrypted, row.mind_id, row.id),
      tags: JSON.parse(row.tags) as string[],
      verified: Boolean(row.verified),
      verified_at: row.verified_at,
      source: row.source,
      created_at: row.created_at,
      updated_at: row.updated_at,
      expires_at: row.expires_at,
      valid_from: row.valid_from,
      valid_to: row.valid_to,
      superseded_by: row.superseded_by,
    };
  }

  /** An earlier version's row: a credentials version's content encrypted, bound to its memory and its own id. */
  toVersionRow(mindId: string, memory: Memory, versionId: string, replacedAt: string): VersionRow {
    const secret = memory.category === 'credentials';
    return {
      id: versionId,
      memory_id: memory.id,
      mind_id: mindId,
      category: memory.category,
      key: memory.key,
      content: secret ? '' : memory.content,
      content_encrypted: secret ? this.cipher.encrypt(memory.content, versionBinding(mindId, memory.id, versionId)) : null,
      tags: JSON.stringify(memory.tags),
      source: memory.source,
      expires_at: memory.expires_at,
      valid_from: memory.valid_from,
      valid_to: memory.valid_to,
      at: memory.updated_at,
      replaced_at: replacedAt,
    };
  }

  toVersion(row: VersionRow): MemoryVersion {
    return {
      content:
        row.content_encrypted === null
          ? row.content
          : this.decryptBound(row.content_encrypted, versionBinding(row.mind_id, row.memory_id, row.id)),
      category: row.category,
      key: row.key,
      tags: JSON.parse(row.tags) as string[],
      source: row.source,
      expires_at: row.expires_at,
      valid_from: row.valid_from,
      valid_to: row.valid_to,
      at: row.at,
      replaced_at: row.replaced_at,
    };
  }

  private decrypt(stored: string, mindId: string, memoryId: string): string {
    return this.decryptBound(stored, cipherBinding(mindId, memoryId));
  }

  private decryptBound(stored: string, binding: string): string {
    try {
      return this.cipher.decrypt(stored, binding);
    } catch (err) {
      if (!(err instanceof UnreadableCiphertext)) throw err;
      // Only a changed MIND_ENCRYPTION_KEY (or a damaged row) gets here; say so without details.
      throw new ApiError(500, "A credentials memory cannot be decrypted: the server's encryption key has changed since it was stored.", {
        code: 'encryption_key_changed',
      });
    }
  }
}

/** The memory_tags rows of a memory (one per distinct tag, with its updated_at for the tag index's order). */
export const tagRows = (mindId: string, memory: Memory) =>
  [...new Set(memory.tags)].map((tag) => ({ memory_id: memory.id, mind_id: mindId, tag, updated_at: memory.updated_at }));
