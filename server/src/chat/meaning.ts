import type { MindCaller } from '../http/caller.js';
import type { ChatKeywordScores } from './keyword-index.js';

export type ChatMatch = 'keyword' | 'semantic' | 'both';

/** The mind searching and its account: the embedder serves accounts in turn, then their minds. */
export type ChatSearcher = Pick<MindCaller, 'userId' | 'mindId'>;

/** A message chat search asks to rank by meaning. */
export interface ChatCandidate {
  id: string;
  text: string;
  /** Its keyword score, when it is one of the best keyword hits. */
  keywordScore?: number;
  /** It holds a word of the query (a keyword hit, with or without its score). */
  holdsWords: boolean;
}

export interface ChatRanked {
  id: string;
  score: number;
  match: ChatMatch;
}

/**
 * Chat search's ranking by meaning. meaning/ answers it with the configured embedder and app.ts
 * hands it in, so chat/ knows nothing of the embedder (meaning/ is a tier above chat/).
 */
export interface ChatByMeaning {
  /** Embeddings are on (MIND_EMBEDDINGS is not off); off, chat search is by keyword only. */
  readonly enabled: boolean;
  /**
   * The candidates ranked for `q`, best first. semantic: those similar enough to q, by similarity;
   * hybrid: every keyword hit and those similar enough, the keyword score fused with the meaning.
   * undefined when the embedder cannot answer now (failing, too slow): the search is then by keyword.
   */
  rank(
    searcher: ChatSearcher,
    q: string,
    mode: 'hybrid' | 'semantic',
    candidates: ChatCandidate[],
    scores: ChatKeywordScores,
    signal?: AbortSignal,
  ): Promise<ChatRanked[] | undefined>;
}
