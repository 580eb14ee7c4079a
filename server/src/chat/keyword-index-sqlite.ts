import { type Fts5Entry, Fts5Index } from '../search/fts5-engine.js';
import { wordVariants } from '../search/word-variants.js';
import { rankingWords, searchWords } from '../search/words.js';
import { type ChatHit, type ChatKeywordIndex, type IndexedMessage, rankedQuery, toMessage } from './keyword-index.js';

/** The tables of migration 0560 (migrations.ts): the ranking row carries the filtered columns. */
const CHAT_FTS = new Fts5Index({
  rows: 'chat_messages',
  fts: 'chat_fts',
  ftsColumns: ['content'],
  terms: 'chat_fts_terms',
  words: 'chat_fts_words',
  rank: 'chat_rank',
  rankColumns: ['seq', 'id', 'mind_id', 'thread', 'role', 'created_at', 'words'],
  stats: 'chat_search_stats',
  count: 'messages',
});

const entryOf = (m: IndexedMessage): Fts5Entry => ({
  seq: m.seq,
  mindId: m.mind_id,
  rank: [m.id, m.mind_id, m.thread, m.role, m.created_at],
  fields: [searchWords(m.content)],
});

const COLUMNS = 'm.id, m.role, m.content, m.thread, m.created_at';

/** SQLite's chat index: search/fts5-engine.ts over the tables above. */
export const sqliteChatIndex: ChatKeywordIndex = {
  added: (conn, messages) => CHAT_FTS.add(conn, messages.map(entryOf)),

  async rankedPage(conn, mindId, filter, limit, after) {
    const variants = rankingWords(filter.words).map(wordVariants);
    const stats = await CHAT_FTS.statistics(conn, mindId, [...new Set(variants.flat())]);
    // Variants no message of the mind holds cost a lookup each in the ranking and add nothing.
    const groups = variants.map((group) => group.filter((w, i) => i === 0 || stats.holding.get(w)! > 0));
    const rows = await CHAT_FTS.rankedRows<IndexedMessage>(conn, rankedQuery(mindId, groups, filter, limit, after), stats, COLUMNS);
    return rows.map((row): ChatHit => ({ message: toMessage(row), score: Number(row.score) }));
  },
};
