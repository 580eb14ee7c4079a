// Which embedder the service under a recall bench uses (RECALL_EMBEDDER): its own local one, the
// openai path on the local vectors served by a fake endpoint in the bench, or the openai path on a
// real OpenAI-compatible endpoint (RECALL_EMBEDDINGS_URL, _MODEL, _KEY).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeOpenAIEmbeddings } from './fake-openai-embeddings.js';

export interface EmbedderPath {
  /** Said in the names of rows that use vectors; empty for the local path, whose rows keep their names. */
  label: string;
  /** MIND_EMBEDDINGS* for the service's environment. */
  env: Record<string, string>;
  /** What the fake endpoint did (undefined without one): requests, texts, seconds spent encoding. */
  fakeStats(): { requests: number; texts: number; encodeSeconds: number } | undefined;
  close(): Promise<void>;
}

const KINDS = ['local', 'openai-fake', 'openai'] as const;

/**
 * The path RECALL_EMBEDDER asks for: local by default, openai when RECALL_EMBEDDINGS_URL is given.
 * A fake endpoint is started here and stopped by close().
 */
export async function startEmbedderPath(env: NodeJS.ProcessEnv = process.env): Promise<EmbedderPath> {
  const url = env.RECALL_EMBEDDINGS_URL;
  const kind = env.RECALL_EMBEDDER ?? (url ? 'openai' : 'local');
  if (!(KINDS as readonly string[]).includes(kind)) throw new Error(`RECALL_EMBEDDER: must be ${KINDS.join(', ')}, not ${kind}`);
  if (url && kind !== 'openai') throw new Error(`RECALL_EMBEDDINGS_URL is for RECALL_EMBEDDER=openai (a real endpoint), not ${kind}`);
  if (kind === 'local') return { label: '', env: {}, fakeStats: () => undefined, close: async () => {} };
  if (kind === 'openai') {
    const model = env.RECALL_EMBEDDINGS_MODEL;
    if (!url || !model) throw new Error('RECALL_EMBEDDER=openai needs RECALL_EMBEDDINGS_URL and RECALL_EMBEDDINGS_MODEL');
    return {
      label: `openai path, ${model} at ${new URL(url).host}`,
      env: {
        MIND_EMBEDDINGS: 'openai',
        MIND_EMBEDDINGS_URL: url,
        MIND_EMBEDDINGS_MODEL: model,
        ...(env.RECALL_EMBEDDINGS_KEY ? { MIND_EMBEDDINGS_API_KEY: env.RECALL_EMBEDDINGS_KEY } : {}),
      },
      fakeStats: () => undefined,
      close: async () => {},
    };
  }
  // The word table cache is shared with bench/recall-eval, so it is built once per machine.
  const fake = await startFakeOpenAIEmbeddings({ cacheDir: join(tmpdir(), 'mind-recall-eval') });
  return {
    label: 'openai path, local vectors via a fake endpoint',
    env: { MIND_EMBEDDINGS: 'openai', MIND_EMBEDDINGS_URL: fake.url, MIND_EMBEDDINGS_MODEL: fake.model },
    fakeStats: () => fake.stats(),
    close: () => fake.close(),
  };
}
