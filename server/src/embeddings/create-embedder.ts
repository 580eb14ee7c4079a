import type { Embedder, EmbeddingsSettings } from './embedder.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAIEmbedder } from './openai-embedder.js';

/** The embedder MIND_EMBEDDINGS asks for; undefined for off (callers then recall by keyword only). */
export function createEmbedder(settings: EmbeddingsSettings): Embedder | undefined {
  switch (settings.mode) {
    case 'off':
      return undefined;
    case 'local':
      return createLocalEmbedder({ cacheDir: settings.cacheDir, logger: settings.logger });
    case 'openai':
      if (!settings.url || !settings.model) throw new Error('MIND_EMBEDDINGS=openai needs MIND_EMBEDDINGS_URL and MIND_EMBEDDINGS_MODEL');
      return createOpenAIEmbedder({
        url: settings.url,
        model: settings.model,
        apiKey: settings.apiKey,
        timeoutMs: settings.timeoutMs ?? 30_000,
        batchSize: settings.batchSize ?? 64,
        maxRetries: settings.maxRetries ?? 3,
        maxRetryDelayMs: Math.min(30_000, settings.timeoutMs ?? 30_000),
        logger: settings.logger,
      });
  }
}
