import { join } from 'node:path';
import type { Embedder, EmbeddingsSettings } from './embedder.js';
import { createLocalEmbedder } from './local-embedder.js';
import { createOpenAIEmbedder } from './openai-embedder.js';

/** Reads the MIND_EMBEDDINGS* variables; throws a message naming the variable when one is wrong. */
export function embeddingsSettingsFromEnv(env: Record<string, string | undefined>, dataDir: string): EmbeddingsSettings {
  const mode = (env.MIND_EMBEDDINGS ?? 'local').trim().toLowerCase();
  if (mode !== 'local' && mode !== 'openai' && mode !== 'off')
    throw new Error(`MIND_EMBEDDINGS must be local, openai or off (got "${mode}")`);
  const settings: EmbeddingsSettings = {
    mode,
    cacheDir: join(dataDir, 'embeddings'),
    url: env.MIND_EMBEDDINGS_URL || undefined,
    model: env.MIND_EMBEDDINGS_MODEL || undefined,
    apiKey: env.MIND_EMBEDDINGS_API_KEY || undefined,
  };
  if (mode === 'openai') {
    if (!settings.url) throw new Error('MIND_EMBEDDINGS_URL is required when MIND_EMBEDDINGS=openai');
    if (!settings.model) throw new Error('MIND_EMBEDDINGS_MODEL is required when MIND_EMBEDDINGS=openai');
    try {
      new URL(settings.url);
    } catch {
      throw new Error(`MIND_EMBEDDINGS_URL is not a URL: ${settings.url}`);
    }
  }
  return settings;
}

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
