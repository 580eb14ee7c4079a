import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { createEmbedder } from '../src/embeddings/create-embedder.js';
import { createLocalEmbedder, createLocalEmbedderInProcess } from '../src/embeddings/local-embedder.js';
import { CACHE_FILE, LOCAL_MODEL, type LoadInfo } from '../src/embeddings/local-model.js';
import { decodeCache } from '../src/embeddings/word-table.js';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, v, i) => sum + v * b[i]!, 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

describe('local embedder (GloVe 100-d, SIF)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mind-embeddings-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const loads: LoadInfo[] = [];
  const inProcess = () => createLocalEmbedderInProcess({ cacheDir: dir, onLoad: (info) => loads.push(info) });

  test('first start builds the cache file in the given directory; vectors are unit length and the same for the same text', async () => {
    const embedder = inProcess();
    assert.equal(embedder.provider, 'local');
    assert.equal(embedder.model, LOCAL_MODEL);
    assert.equal(embedder.dimension(), undefined, 'unknown before loading');
    const [a, b, c] = await embedder.embed([
      'The user prefers dark mode.',
      'The user prefers dark mode.',
      'Completely unrelated: a lighthouse.',
    ]);
    assert.equal(loads.at(-1)?.built, true);
    assert.equal(loads.at(-1)?.reason, 'no cache file');
    assert.ok(readFileSync(join(dir, CACHE_FILE)).length > 1_000_000);
    assert.equal(embedder.dimension(), 100);
    for (const v of [a!, b!, c!]) assert.ok(Math.abs(norm(v) - 1) < 1e-5, `norm ${norm(v)}`);
    assert.deepEqual(a, b);
    const [empty] = await embedder.embed(['1234 ?!']);
    assert.ok(
      empty!.every((v) => v === 0),
      'no known word: all zeros',
    );
  });

  test('similar sentences are closer than unrelated ones', async () => {
    const embedder = inProcess();
    const pairs: Array<[string, string, string]> = [
      ['My daughter started violin lessons.', 'What instrument is the child learning?', 'The garage door needs a new motor.'],
      ['The user is allergic to peanuts.', 'Which nuts cause a reaction?', 'The quarterly report is due on Friday.'],
      ['The flight to Boston leaves at 7:40.', 'When does the plane depart?', 'Add lemons and rice to the shopping list.'],
      ['The cat is on a prescription kidney diet.', 'What special food does the kitty eat?', 'The user reports to the VP of Engineering.'],
    ];
    for (const [fact, question, unrelated] of pairs) {
      const [f, q, u] = await embedder.embed([fact, question, unrelated]);
      assert.ok(
        cosine(q!, f!) > cosine(q!, u!),
        `"${question}": ${cosine(q!, f!).toFixed(3)} to the fact, ${cosine(q!, u!).toFixed(3)} to "${unrelated}"`,
      );
    }
    // Light stemming: a word missing from the table is looked up by its base form.
    const [plural, singular] = await embedder.embed(['violin lessons', 'violin lesson']);
    assert.ok(cosine(plural!, singular!) > 0.9);
  });

  test('a later start reads the cache (no rebuild, faster) and gives the same vectors', async () => {
    const built = loads.find((l) => l.built)!;
    const text = 'The user banks with Chase.';
    const [first] = await inProcess().embed([text]);
    const [second] = await inProcess().embed([text]);
    const reads = loads.filter((l) => !l.built);
    assert.ok(reads.length >= 2);
    for (const read of reads) assert.ok(read.ms < built.ms, `read in ${read.ms} ms, built in ${built.ms} ms`);
    assert.deepEqual(first, second);
  });

  test('a damaged or foreign cache file is rebuilt', async () => {
    const file = join(dir, CACHE_FILE);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5_000_000]! ^= 0xff; // a byte of the vectors
    writeFileSync(file, bytes);
    const [vector] = await inProcess().embed(['dark mode']);
    assert.equal(loads.at(-1)?.built, true);
    assert.equal(loads.at(-1)?.reason, 'checksum mismatch');
    assert.ok(Math.abs(norm(vector!) - 1) < 1e-5);

    const expect = { model: 'any', source: 'any' };
    assert.equal(decodeCache(Buffer.from('not a cache'), expect), 'not a word table cache');
    assert.match(String(decodeCache(readFileSync(file), expect)), /^built for local-glove100-sif-v1 /, 'another model or package version');
    await inProcess().embed(['dark mode']);
    assert.equal(loads.at(-1)?.built, false, 'the rebuilt file is read again');
  });

  test('the worker thread embeds while the event loop stays free, with the same vectors as in process', async () => {
    const embedder = createEmbedder({ mode: 'local', cacheDir: dir });
    assert.ok(embedder && 'ready' in embedder);
    const texts = Array.from(
      { length: 20_000 },
      (_, i) => `Note ${i}: the user moved the design review to Friday and booked the rooftop venue.`,
    );
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      const started = performance.now();
      const vectors = await embedder.embed(texts);
      const elapsed = performance.now() - started;
      assert.equal(vectors.length, texts.length);
      assert.equal(embedder.dimension(), 100);
      // Timers fire while the thread works: the batch did not hold this thread for its duration.
      assert.ok(ticks >= Math.min(5, elapsed / 20), `${ticks} timer ticks in ${elapsed.toFixed(0)} ms`);
      const [inThread] = await embedder.embed(['The user banks with Chase.']);
      const [here] = await inProcess().embed(['The user banks with Chase.']);
      assert.deepEqual(Array.from(inThread!), Array.from(here!));
      const aborted = new AbortController();
      aborted.abort(new Error('caller gave up'));
      await assert.rejects(embedder.embed(['x'], aborted.signal), /caller gave up/);
    } finally {
      clearInterval(timer);
      await embedder.close();
    }
    await assert.rejects(embedder.embed(['after close']), /closed/);
  });

  test('a worker that builds the cache hands over to a fresh thread that reads it, and embeds', async () => {
    const fresh = join(dir, 'fresh');
    const embedder = createLocalEmbedder({ cacheDir: fresh });
    try {
      const info = await embedder.ready();
      assert.equal(info.built, true);
      assert.equal(embedder.dimension(), 100, 'known once loaded');
      const [vector] = await embedder.embed(['The user banks with Chase.']);
      const [here] = await inProcess().embed(['The user banks with Chase.']);
      assert.deepEqual(Array.from(vector!), Array.from(here!));
      assert.equal(loads.at(-1)?.built, false);
    } finally {
      await embedder.close();
    }
  });

  test('off means no embedder', () => {
    assert.equal(createEmbedder({ mode: 'off', cacheDir: dir }), undefined);
  });

  test('the worker reports a load failure to embed callers', async () => {
    const blocked = join(dir, 'a-file');
    writeFileSync(blocked, 'in the way');
    const embedder = createLocalEmbedder({ cacheDir: join(blocked, 'cache') });
    await assert.rejects(embedder.embed(['x']), /local embeddings failed to load/);
    await embedder.close();
  });
});
