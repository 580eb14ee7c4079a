/**
 * The words of chat's keyword index and of its queries, made as memories' are (memories/
 * search-text.ts `searchWords`, `mindPrefix`): runs of letters and digits, lower-cased, accents
 * removed, each indexed word prefixed with its mind (`m` + the mind id's 32 hex digits), so the
 * index keeps minds apart and a word's counts are its mind's own. A copy, because chat may not
 * import memories (the same tier, .dependency-cruiser.cjs); chat.search.test.ts holds the two to
 * the same answers. Once the word functions live below the areas (lib/), chat imports them.
 */
export function chatWords(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  return folded.match(/[\p{L}\p{N}]+/gu) ?? [];
}

export const chatMindPrefix = (mindId: string) => `m${mindId.replaceAll('-', '').toLowerCase()}`;
