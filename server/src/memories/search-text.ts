import { documentLength, mindPrefix, searchWords } from '../lib/search-words.js';

export const indexedText = (prefix: string, words: string[]) => words.map((w) => prefix + w).join(' ');

/**
 * What SQLite's index holds for a memory: the indexed text of its key, content and tags, and its
 * length (documentLength).
 */
export function indexEntry(mindId: string, key: string | null, content: string, tags: string[]) {
  const prefix = mindPrefix(mindId);
  const fields = [searchWords(key ?? ''), searchWords(content), searchWords(tags.join(' '))];
  return {
    texts: fields.map((words) => indexedText(prefix, words)) as [key: string, content: string, tags: string],
    words: documentLength(fields.flat()),
  };
}
