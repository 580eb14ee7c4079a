import { randomUUID } from 'node:crypto';
import type { Conn, Db, Dialect } from '../db/database.js';

/** A queued memory, claimed by this worker until the lease ends. */
export interface ClaimedEmbedding {
  seq: number;
  mindId: string;
  version: number;
  /** What is embedded: the key, the content and the tags. */
  text: string;
}

/**
 * Of a memory's content, only this many first characters are embedded and re-ranked: the cost per
 * memory is bounded (a memory of 64 KB costs what one of 4 KB does), and the first few KB say what
 * a memory is about. The rest is still found by keyword (docs/memories.md).
 */
export const EMBEDDED_CONTENT_CHARS = 4096;

/** What is embedded of a memory: its key (as words), the start of its content, and its tags. */
export const embeddingText = (memory: { key: string | null; content: string; tags: string[] }): string =>
  [memory.key?.replace(/[-_.]/g, ' ') ?? '', memory.content.slice(0, EMBEDDED_CONTENT_CHARS), memory.tags.join(' ')]
    .filter(Boolean)
    .join('\n');

/**
 * This process's name on its claims: its pid (a SQLite database's processes all run on this machine,
 * so a dead one's claims can be told) and a random part (a restarted process may get its
 * predecessor's pid, as in a container).
 */
export const CLAIM_OWNER = `${process.pid}:${randomUUID()}`;

/** A vector as stored: float32, little-endian. */
export const vectorToBuffer = (vector: Float32Array): Buffer => {
  const out = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) out.writeFloatLE(vector[i]!, i * 4);
  return out;
};

export const bufferToVector = (bytes: Uint8Array): Float32Array => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = new Float32Array(bytes.byteLength / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = view.getFloat32(i * 4, true);
  return vector;
};

/**
 * Claims up to `limit` queued memories and reads what to embed (the start of each content, see
 * EMBEDDED_CONTENT_CHARS). One UPDATE marks them claimed by this process until `leaseUntil`, so two
 * workers never embed the same memory: PostgreSQL's instances over `FOR UPDATE SKIP LOCKED`, and on
 * SQLite the service and `mind-service reindex` (SQLite runs one writer at a time). When nothing is
 * claimable, claims of processes that died (SQLite) are given back first.
 */
export async function claimPendingEmbeddings(
  db: Db,
  dialect: Dialect,
  claim: { now: string; leaseUntil: string; limit: number },
): Promise<ClaimedEmbedding[]> {
  type Claimed = Array<{ memory_seq: number; mind_id: string; version: number }>;
  const due = `SELECT memory_seq FROM embedding_queue WHERE claimed_until IS NULL OR claimed_until < ? ORDER BY memory_seq LIMIT ?`;
  const take = async (): Promise<Claimed> => {
    const result = (await db.raw(
      `UPDATE embedding_queue SET claimed_until = ?, claimed_by = ?
       WHERE memory_seq IN (${due}${dialect.forUpdateSkipLockedSql})
       RETURNING memory_seq, mind_id, version`,
      [claim.leaseUntil, CLAIM_OWNER, claim.now, claim.limit],
    )) as Claimed | { rows: Claimed };
    return Array.isArray(result) ? result : result.rows;
  };
  let claimed = await take();
  if (claimed.length === 0 && (await releaseDeadClaims(db, dialect)) > 0) claimed = await take();
  if (claimed.length === 0) return [];
  claimed.sort((a, b) => Number(a.memory_seq) - Number(b.memory_seq));
  const memories = (await db('memories')
    .whereIn(
      'seq',
      claimed.map((c) => c.memory_seq),
    )
    .select('seq', 'key', db.raw(`substr(content, 1, ${EMBEDDED_CONTENT_CHARS}) AS content`), 'tags')) as Array<{
    seq: number;
    key: string | null;
    content: string;
    tags: string;
  }>;
  const bySeq = new Map(memories.map((m) => [Number(m.seq), m]));
  return claimed.flatMap((c) => {
    const memory = bySeq.get(Number(c.memory_seq));
    if (!memory) return []; // deleted meanwhile: its queue row went with it
    const text = embeddingText({ key: memory.key, content: memory.content, tags: JSON.parse(memory.tags) as string[] });
    return [{ seq: Number(c.memory_seq), mindId: c.mind_id, version: Number(c.version), text }];
  });
}

/** Whether the process that wrote `owner` (CLAIM_OWNER) still runs on this machine. */
function ownerAlive(owner: string): boolean {
  if (owner === CLAIM_OWNER) return true;
  const pid = Number(owner.split(':')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false; // ours before a restart
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // runs, as another user
  }
}

/**
 * SQLite: gives back the claims of processes no longer running (a killed service or reindex), so
 * their memories need not wait for the lease to end. Instances sharing a database (PostgreSQL) may
 * run on other machines: there only the lease ends a claim.
 */
export async function releaseDeadClaims(db: Db, dialect: Dialect): Promise<number> {
  if (dialect.sharedByInstances) return 0;
  const owners = (await db('embedding_queue').whereNotNull('claimed_until').distinct('claimed_by')) as Array<{
    claimed_by: string | null;
  }>;
  let released = 0;
  for (const { claimed_by: owner } of owners) {
    if (owner !== null && ownerAlive(owner)) continue;
    const query = db('embedding_queue').whereNotNull('claimed_until');
    if (owner === null) query.whereNull('claimed_by');
    else query.where({ claimed_by: owner });
    released += await query.update({ claimed_until: null, claimed_by: null });
  }
  return released;
}

/**
 * Stores the vectors and takes the memories off the queue, each only if it was not changed again
 * while it was embedded (then its newer version stays queued and gets its own vector).
 */
export async function completeEmbeddings(
  db: Db,
  dialect: Dialect,
  model: string,
  done: Array<{ claimed: ClaimedEmbedding; vector: Float32Array }>,
  now: string,
): Promise<number> {
  if (done.length === 0) return 0;
  return db.transaction(async (trx) => {
    // The memories first, as a delete takes them (the memory, then its queue row by cascade); on
    // PostgreSQL the other order deadlocked with a concurrent DELETE (a 500 after a second).
    const seqs = done.map(({ claimed }) => claimed.seq);
    await dialect.lockAgainstDelete(trx('memories').whereIn('seq', seqs).orderBy('seq').select('seq'));
    // One statement each for the batch: taking the rows still at their claimed version off the queue,
    // then storing those memories' vectors.
    const pairs = done.map(() => '(CAST(? AS INTEGER), CAST(? AS INTEGER))').join(', ');
    const removed = (await trx.raw(
      `DELETE FROM embedding_queue WHERE (memory_seq, version) IN (VALUES ${pairs}) RETURNING memory_seq`,
      done.flatMap(({ claimed }) => [claimed.seq, claimed.version]),
    )) as Array<{ memory_seq: number }> | { rows: Array<{ memory_seq: number }> };
    const still = new Set((Array.isArray(removed) ? removed : removed.rows).map((r) => Number(r.memory_seq)));
    // Instances' clocks differ: where they share the database the stored time is the database's,
    // which every instance's vector index reads from (vector-index.ts).
    const at = dialect.sharedNow(trx, now);
    const rows = done
      .filter(({ claimed }) => still.has(claimed.seq))
      .map(({ claimed, vector }) => ({
        memory_seq: claimed.seq,
        mind_id: claimed.mindId,
        model,
        vector: vectorToBuffer(vector),
        embedded_at: at,
      }));
    for (let i = 0; i < rows.length; i += 100) {
      await trx('memory_vectors')
        .insert(rows.slice(i, i + 100))
        .onConflict('memory_seq')
        .merge(['model', 'vector', 'embedded_at']);
    }
    return rows.length;
  });
}

/** Gives claimed memories back at once (the embedder failed): the next pass retries them. */
export async function releaseEmbeddings(db: Db, claimed: ClaimedEmbedding[]): Promise<void> {
  if (claimed.length === 0) return;
  await db('embedding_queue')
    .whereIn(
      'memory_seq',
      claimed.map((c) => c.seq),
    )
    .update({ claimed_until: null, claimed_by: null });
}

/**
 * Records the embedder's model. With a different one than the stored vectors were made with, every
 * memory is queued again (in the same transaction), so the change re-embeds in the background.
 */
export async function adoptModel(db: Db, model: string): Promise<{ changed: boolean; queued: number }> {
  return db.transaction(async (trx) => {
    const state = (await trx('embedding_state').where({ id: 1 }).first('model')) as { model: string | null } | undefined;
    if (state?.model === model) return { changed: false, queued: 0 };
    const queued = await requeueAll(trx);
    await trx('embedding_state').where({ id: 1 }).update({ model });
    return { changed: true, queued };
  });
}

/** Embeddings are off: the queue is emptied and the model forgotten (turning them on queues every memory). */
export async function forgetModel(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('embedding_queue').delete();
    await trx('embedding_state').where({ id: 1 }).update({ model: null });
  });
}

/** Queues every memory that is embedded (all but credentials) again; `mindId` limits it to one mind. */
export async function requeueAll(conn: Conn, mindId?: string): Promise<number> {
  const where = mindId ? `AND mind_id = ?` : '';
  const result = (await conn.raw(
    `INSERT INTO embedding_queue (memory_seq, mind_id, version)
       SELECT seq, mind_id, 1 FROM memories WHERE category != 'credentials' ${where}
     ON CONFLICT (memory_seq) DO UPDATE SET version = embedding_queue.version + 1, claimed_until = NULL`,
    mindId ? [mindId] : [],
  )) as { rowCount?: number; changes?: number };
  return Number(result.rowCount ?? result.changes ?? 0);
}

export async function pendingEmbeddings(conn: Conn, mindId?: string): Promise<number> {
  const query = conn('embedding_queue');
  if (mindId) query.where({ mind_id: mindId });
  const row = (await query.count({ n: '*' }).first()) as { n: number | string } | undefined;
  return Number(row?.n ?? 0);
}

/**
 * The mind's vectors of `model` stored after `after` (all without it), oldest first, as stored (the
 * caller decodes those it does not have).
 */
export async function vectorsSince(
  conn: Conn,
  mindId: string,
  model: string,
  after: string | undefined,
): Promise<Array<{ seq: number; bytes: Uint8Array; embeddedAt: string }>> {
  const query = conn('memory_vectors').where({ mind_id: mindId, model });
  if (after !== undefined) query.where('embedded_at', '>', after);
  const rows = (await query.orderBy('embedded_at').select('memory_seq', 'vector', 'embedded_at')) as Array<{
    memory_seq: number;
    vector: Uint8Array;
    embedded_at: string;
  }>;
  return rows.map((r) => ({ seq: Number(r.memory_seq), bytes: r.vector, embeddedAt: r.embedded_at }));
}
