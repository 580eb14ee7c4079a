import { parentPort, workerData } from 'node:worker_threads';
import { loadLocalModel } from './local-model.js';
import { alignerFor, type RerankCandidate, type RerankOptions } from './rerank.js';

/**
 * The local embedder's thread (started by local-embedder.ts): loads the word table once, then
 * answers { id, texts } with { id, buffer }: the texts' vectors packed in one transferred buffer,
 * and { id, mindId, rerank: { query, candidates } } with { id, hits } (rerank.ts), or with { id }
 * of type more after reading about `sliceChars` of the window's new texts (asked again later).
 */
const port = parentPort!;
const { cacheDir, sliceChars } = workerData as { cacheDir: string; sliceChars: number };

const loading = loadLocalModel({
  cacheDir,
  onLoad: (info) => port.postMessage({ type: 'ready', info }),
});
loading.catch((err: unknown) => port.postMessage({ type: 'fatal', message: err instanceof Error ? err.message : String(err) }));

type Request =
  | { id: number; texts: string[] }
  | { id: number; mindId: string; rerank: { query: string; candidates: RerankCandidate[]; options: RerankOptions } };

port.on('message', async (request: Request) => {
  const { id } = request;
  try {
    const encoder = await loading;
    if ('rerank' in request) {
      const { query, candidates, options } = request.rerank;
      const aligner = alignerFor(encoder);
      if (!aligner.prepare(candidates, request.mindId, sliceChars, options.alignWeight > 0)) port.postMessage({ type: 'more', id });
      else port.postMessage({ type: 'reranked', id, hits: aligner.rerank(query, candidates, options, request.mindId) });
      return;
    }
    const { texts } = request;
    const packed = new Float32Array(texts.length * encoder.dim);
    texts.forEach((text, i) => {
      packed.set(encoder.encode(text), i * encoder.dim);
    });
    port.postMessage({ type: 'result', id, buffer: packed.buffer, dim: encoder.dim }, [packed.buffer]);
  } catch (err) {
    port.postMessage({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
  }
});
