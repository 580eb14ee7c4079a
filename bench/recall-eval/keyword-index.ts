import { createRequire } from 'node:module';
import { COMMON_WORD_MIN_TEXTS, COMMON_WORD_SHARE } from '../../server/src/search/common-words.js';
import { indexedText, mindPrefix, searchWords } from '../../server/src/search/words.js';

/**
 * Keyword recall as the server does it on SQLite (search/fts5-engine.ts), in memory: the same FTS5
 * table and tokenizer, the same mind-prefixed words (search/words.ts), the same query (any of the
 * words, each quoted), BM25 negated, and words in at least COMMON_WORD_SHARE of the memories (and
 * COMMON_WORD_MIN_TEXTS) weighted 0: their matches follow the ranked ones, newest first.
 */

// better-sqlite3 is the server's dependency; the bench package resolves it from there.
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
}
interface Database {
  exec(sql: string): void;
  prepare(sql: string): Statement;
  transaction(fn: () => void): () => void;
  close(): void;
}
const openDatabase = createRequire(new URL('../../server/package.json', import.meta.url))('better-sqlite3') as new (
  file: string,
) => Database;

const MIND = '00000000-0000-4000-8000-00000000e7a1';

export interface Scored {
  id: string;
  score: number;
}

export class KeywordIndex {
  private readonly db = new openDatabase(':memory:');
  private readonly prefix = mindPrefix(MIND);
  private readonly ids: string[] = [];

  /** `docs` in order of age: the last is the newest (the server's tail order). */
  constructor(docs: ReadonlyArray<{ id: string; content: string }>) {
    this.db.exec(`CREATE VIRTUAL TABLE memories_fts USING fts5(key, content, tags,
      content='', contentless_delete=1, tokenize='ascii')`);
    const insert = this.db.prepare('INSERT INTO memories_fts (rowid, key, content, tags) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      docs.forEach((doc, i) => {
        this.ids.push(doc.id);
        insert.run(i + 1, '', indexedText(MIND, searchWords(doc.content)), '');
      });
    })();
  }

  /** The memories matching any word of `q`, best first (BM25 score; 0 for the common-words tail). */
  search(q: string, limit = 100): Scored[] {
    const words = [...new Set(searchWords(q))];
    if (words.length === 0) return [];
    const { ranked, common } = this.splitCommonWords(words);
    const hits: Scored[] = [];
    if (ranked.length > 0) {
      const rows = this.db
        .prepare(
          'SELECT rowid, -bm25(memories_fts) AS score FROM memories_fts WHERE memories_fts MATCH ? ORDER BY score DESC, rowid DESC LIMIT ?',
        )
        .all(this.matchAny(ranked), limit) as Array<{ rowid: number; score: number }>;
      hits.push(...rows.map((r) => ({ id: this.ids[r.rowid - 1]!, score: r.score })));
    }
    if (hits.length < limit && common.length > 0) {
      const lacks = ranked.length > 0 ? ' EXCEPT SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?' : '';
      const rows = this.db
        .prepare(`SELECT rowid FROM (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?${lacks}) ORDER BY rowid DESC LIMIT ?`)
        .all(...[this.matchAny(common), ...(ranked.length > 0 ? [this.matchAny(ranked)] : []), limit - hits.length]) as Array<{
        rowid: number;
      }>;
      hits.push(...rows.map((r) => ({ id: this.ids[r.rowid - 1]!, score: 0 })));
    }
    return hits;
  }

  close() {
    this.db.close();
  }

  private matchAny(words: string[]) {
    return words.map((w) => `"${this.prefix}${w}"`).join(' OR ');
  }

  private splitCommonWords(words: string[]) {
    const indexed = this.ids.length;
    const threshold = Math.max(COMMON_WORD_MIN_TEXTS, Math.ceil(indexed * COMMON_WORD_SHARE));
    if (indexed < threshold) return { ranked: words, common: [] as string[] };
    const count = this.db.prepare('SELECT count(*) AS n FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)');
    const ranked: string[] = [];
    const common: string[] = [];
    for (const word of words) {
      const { n } = count.get(this.matchAny([word]), threshold) as { n: number };
      (n >= threshold ? common : ranked).push(word);
    }
    return { ranked, common };
  }
}
