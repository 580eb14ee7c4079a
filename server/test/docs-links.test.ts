// The guides are read in two places: as files in the repository (where the README sends people) and
// served under /docs. Every link must work in both.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { marked, type Token } from 'marked';
import { serverHref } from '../src/system/doc-links.js';
import { useService } from './harness.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const DOCS = join(ROOT, 'docs');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

const READMES = ['README.md', 'agent/README.md', 'examples/README.md'].map((f) => join(ROOT, f));
const FILES = [...markdownFiles(DOCS), ...READMES.filter(existsSync)];

function linksOf(markdown: string): string[] {
  const hrefs: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type === 'link') hrefs.push(token.href);
  });
  return hrefs;
}

/** GitHub's heading anchors: lower case, punctuation and emphasis dropped (an underscore inside a word kept), spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const token of marked.lexer(markdown)) {
    if (token.type !== 'heading') continue;
    anchors.add(
      token.text
        .toLowerCase()
        .replace(/[`*]/g, '')
        .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu, '$1')
        .replace(/[^\p{L}\p{N}_\s-]/gu, '')
        .replace(/\s/g, '-'),
    );
  }
  return anchors;
}

describe('links in the guides', () => {
  for (const file of FILES) {
    test(`${relative(ROOT, file)}: every link resolves to a file in the repository`, () => {
      const markdown = readFileSync(file, 'utf8');
      for (const href of linksOf(markdown)) {
        if (/^(https?|mailto):/.test(href)) continue;
        assert.ok(!href.startsWith('/'), `${href} is a server path: link the file instead, it is broken in the repository`);
        const [path = '', anchor] = href.split('#', 2);
        const target = path ? resolve(dirname(file), path) : file;
        assert.ok(existsSync(target), `${href} points to a missing file`);
        if (anchor && target.endsWith('.md')) {
          assert.ok(anchorsOf(readFileSync(target, 'utf8')).has(anchor), `${href}: no heading makes the anchor #${anchor}`);
        }
      }
    });
  }

  test('file links become server routes', () => {
    assert.equal(serverHref('../tasks.md#limits', 'getting-started/quickstart'), '/docs/tasks#limits');
    assert.equal(serverHref('getting-started/authentication.md', 'index'), '/docs/getting-started/authentication');
    assert.equal(serverHref('index.md', 'tasks'), '/docs');
    assert.equal(serverHref('openapi.json', 'index'), '/openapi.json');
    assert.equal(serverHref('api.md', 'index'), '/docs/api');
    assert.equal(serverHref('https://example.com/x.md', 'index'), 'https://example.com/x.md');
  });
});

describe('links in the served guides', () => {
  const svc = useService();

  test('every link on every guide page answers 200', async () => {
    const checked = new Set<string>();
    for (const file of markdownFiles(DOCS)) {
      const route = `/docs/${relative(DOCS, file).slice(0, -'.md'.length)}`.replace(/\/index$/, '');
      if (route === '/docs/api') continue; // the route is Swagger UI; api.md explains it in the repository
      const page = await svc.http.get(route).expect(200);
      for (const [, href = ''] of page.text.matchAll(/href="([^"]+)"/g)) {
        if (/^https?:/.test(href)) continue;
        if (href.startsWith('#')) {
          assert.ok(page.text.includes(`id="${href.slice(1)}"`), `${route} links ${href}, a heading the page does not have`);
          continue;
        }
        assert.ok(href.startsWith('/'), `${route} links ${href}, which the browser resolves against the page`);
        const path = href.split('#')[0] ?? '';
        if (checked.has(path)) continue;
        checked.add(path);
        await svc.http.get(path).expect(200);
      }
    }
    assert.ok(checked.has('/docs/tasks') && checked.has('/docs/api') && checked.has('/openapi.json'));
  });
});
