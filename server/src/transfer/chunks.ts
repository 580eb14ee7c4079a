import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Items per piece of an import's work: a piece takes a few milliseconds, and between pieces the
 * event loop serves other requests (an import of 100,000 items must not hold everyone up).
 */
export const CHUNK_SIZE = 500;

/** Lets the event loop serve what is waiting (I/O included) before the next piece of work. */
export const yieldToOthers = () => nextTurn();

/** Calls `fn` with the items in pieces of CHUNK_SIZE, yielding to other work between pieces. */
export async function inChunks<T>(items: readonly T[], fn: (chunk: T[], offset: number) => unknown): Promise<void> {
  for (let offset = 0; offset < items.length; offset += CHUNK_SIZE) {
    if (offset > 0) await yieldToOthers();
    await fn(items.slice(offset, offset + CHUNK_SIZE), offset);
  }
}

/** `items.map(fn)` in pieces of CHUNK_SIZE, yielding to other work between pieces. */
export async function mapInChunks<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = [];
  await inChunks(items, (chunk, offset) => {
    for (const [i, item] of chunk.entries()) out.push(fn(item, offset + i));
  });
  return out;
}
