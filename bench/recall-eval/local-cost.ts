// What the local embedder costs: cache build (first start) and load (later starts), RSS it adds
// in process and with its worker thread, texts per second, and how long the event loop is held.
// Each measurement runs in a fresh process. Usage: node --import tsx bench/recall-eval/local-cost.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createLocalEmbedder, createLocalEmbedderInProcess } from '../../server/src/embeddings/local-embedder.js';
import type { LoadInfo } from '../../server/src/embeddings/local-model.js';

const TEXTS = Array.from(
  { length: 20_000 },
  (_, i) => `Note ${i}: the user's daughter moved the violin recital to Friday, and the kitchen renovation is waiting on the installer.`,
);

const settledRss = async () => {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((done) => setTimeout(done, 200));
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 1e6;
};

/** One measurement, in this (child) process; prints a JSON line. */
async function measure(mode: string, cacheDir: string) {
  const before = await settledRss();
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const started = performance.now();
  let info: LoadInfo | undefined;
  const embedder =
    mode === 'worker' ? createLocalEmbedder({ cacheDir }) : createLocalEmbedderInProcess({ cacheDir, onLoad: (i) => (info = i) });
  if ('ready' in embedder) info = await (embedder as { ready(): Promise<LoadInfo> }).ready();
  else await embedder.embed(['warm up']);
  const loadMs = performance.now() - started;
  await new Promise((done) => setTimeout(done, 20));
  const loopMaxDuringLoad = delay.max / 1e6;
  const afterLoad = await settledRss();
  delay.reset();
  const batchStarted = performance.now();
  for (let i = 0; i < TEXTS.length; i += 500) await embedder.embed(TEXTS.slice(i, i + 500));
  const perSecond = TEXTS.length / ((performance.now() - batchStarted) / 1000);
  await new Promise((done) => setTimeout(done, 20)); // in process, the delay shows once the loop turns again
  const loopMaxDuringBatches = delay.max / 1e6;
  const afterBatches = await settledRss();
  await embedder.close();
  console.log(
    JSON.stringify({
      mode,
      built: info?.built,
      loadMs,
      loopMaxDuringLoad,
      rssAdded: afterLoad - before,
      rssAfterBatches: afterBatches - before,
      perSecond,
      loopMaxDuringBatches,
    }),
  );
}

if (process.argv[2] === '--child') {
  await measure(process.argv[3]!, process.argv[4]!);
} else {
  const cacheDir = mkdtempSync(join(tmpdir(), 'mind-local-cost-'));
  const run = (mode: string) =>
    JSON.parse(
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode, cacheDir], {
        encoding: 'utf8',
      }).trim(),
    );
  try {
    const rows = [run('worker'), run('worker'), run('in-process')];
    console.log('mode        cache   start ms  loop max ms  RSS added MB  (after 20k texts)  texts/s  loop max ms in batches');
    for (const r of rows) {
      console.log(
        `${r.mode.padEnd(11)} ${(r.built ? 'built' : 'read').padEnd(7)} ${r.loadMs.toFixed(0).padStart(8)}  ${r.loopMaxDuringLoad.toFixed(0).padStart(11)}  ${r.rssAdded.toFixed(0).padStart(12)}  ${r.rssAfterBatches.toFixed(0).padStart(17)}  ${r.perSecond.toFixed(0).padStart(7)}  ${r.loopMaxDuringBatches.toFixed(0).padStart(6)}`,
      );
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
