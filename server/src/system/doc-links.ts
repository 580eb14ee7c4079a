import { posix } from 'node:path';
import { Marked, type Token, type Tokens } from 'marked';

/**
 * The guides link to each other as files (`../tasks.md#limits`), so they work where they are read in
 * the repository; served under /docs they become the server's routes (`/docs/tasks#limits`).
 * `docName` is the guide's path under docs/ without `.md` (`getting-started/quickstart`).
 */
export function serverHref(href: string, docName: string): string {
  if (/^[a-z][a-z+.-]*:|^\/|^#/i.test(href)) return href; // absolute URLs, server paths and anchors stay
  const [path = '', anchor] = href.split('#', 2);
  const resolved = posix.normalize(posix.join(posix.dirname(docName), path));
  if (resolved.startsWith('..')) return href;
  const suffix = anchor === undefined ? '' : `#${anchor}`;
  if (resolved === 'openapi.json') return `/openapi.json${suffix}`;
  if (!resolved.endsWith('.md')) return href;
  const route = resolved.slice(0, -'.md'.length).replace(/(^|\/)index$/, '');
  return `/docs${route ? `/${route}` : ''}${suffix}`;
}

/**
 * GitHub's anchor for a heading, so `file.md#anchor` lands on the same heading in both places.
 * Emphasis marks go, an underscore inside a word stays (`task_not_found`, as GitHub keeps it).
 */
export function headingAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*]/g, '')
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, '$1')
    .replace(/[^\p{L}\p{N}_\s-]/gu, '')
    .replace(/\s/g, '-');
}

const guides = new Marked({
  renderer: {
    heading(this: { parser: { parseInline(tokens: Token[]): string } }, { tokens, depth, text }: Tokens.Heading) {
      return `<h${depth} id="${headingAnchor(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

/** The guide as HTML: headings with GitHub's anchors, file links turned into server routes. */
export function renderGuide(markdown: string, docName: string): string {
  const tokens = guides.lexer(markdown);
  guides.walkTokens(tokens, (token: Token) => {
    if (token.type === 'link') token.href = serverHref(token.href, docName);
  });
  return guides.parser(tokens);
}
