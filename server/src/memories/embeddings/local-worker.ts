import { parentPort, workerData } from 'node:worker_threads';
import { loadLocalModel } from './local-model.js';

/**
 * The local embedder's thread (started by local-embedder.ts): loads the word table once, then
 * answers { id, texts } with { id, buffer }: the texts' vectors packed in one transferred buffer.
 */
const port = parentPort!;
const { cacheDir } = workerData as { cacheDir: string };

const loading = loadLocalModel({
  cacheDir,
  onLoad: (info) => port.postMessage({ type: 'ready', info }),
});
loading.catch((err: unknown) => port.postMessage({ type: 'fatal', message: err instanceof Error ? err.message : String(err) }));

port.on('message', async ({ id, texts }: { id: number; texts: string[] }) => {
  try {
    const encoder = await loading;
    const packed = new Float32Array(texts.length * encoder.dim);
    texts.forEach((text, i) => {
      packed.set(encoder.encode(text), i * encoder.dim);
    });
    port.postMessage({ type: 'result', id, buffer: packed.buffer, dim: encoder.dim }, [packed.buffer]);
  } catch (err) {
    port.postMessage({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
  }
});
