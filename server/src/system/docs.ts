import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '@mindservice/contract/openapi';
import express, { type Request, type Response, type Router } from 'express';
import { faviconIco } from './favicon.js';

// Only the folder of Swagger UI's files: the package's main module would load its 1.5 MB browser bundle into the server.
const swaggerUiDir = () => dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - Mind Service</title><link rel="icon" href="/favicon.ico">
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
pre{background:#f4f5f7;padding:.8rem;overflow:auto;border-radius:6px}code{font-size:.92em}
table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.3rem .6rem}nav a{margin-right:1rem}</style>
</head><body><nav><a href="/docs">Guides</a><a href="/docs/api">API reference</a><a href="/openapi.json">openapi.json</a></nav>
${body}</body></html>`;

const swaggerHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mind Service API</title><link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="/docs/api/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/api/assets/swagger-ui-bundle.js"></script>
<script src="/docs/api/swagger-init.js"></script></body></html>`;

/**
 * The only files of swagger-ui-dist the page above loads, and the only ones served: the package's
 * others (its stock index.html and initializer pointing at the petstore, the OAuth2 redirect page,
 * source maps) are 404.
 */
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js'];

const swaggerInit = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`;

/** Whether a path is one docsRouter serves (the app hands it these, with the docs' security headers). */
export const isDocsPath = (path: string) => path === '/' || path === '/openapi.json' || path === '/favicon.ico' || path.startsWith('/docs');

/** Runs `make` once, when its value is first asked for. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * /openapi.json, Swagger UI at /docs/api, the markdown guides under /docs/... as HTML, and /favicon.ico.
 * Each is made when first asked for, not at start: a service that is only called over its API
 * carries none of them (the document alone is some 7 MB of a fresh server's RSS; the guides need marked).
 */
export function docsRouter(): Router {
  const router = express.Router();
  const openapi = once(() => JSON.stringify(buildOpenApiDocument()));
  const favicon = once(faviconIco);
  const swaggerDir = once(swaggerUiDir);
  const guides = once(() => import('./doc-links.js'));

  // The address the server prints at start leads somewhere: the guides. 302, not 308: a browser would
  // remember a permanent redirect of the service's root for good.
  router.get('/', (_req, res) => {
    res.redirect(302, '/docs');
  });

  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openapi());
  });
  router.get('/favicon.ico', (_req, res) => {
    res.type('image/x-icon').set('Cache-Control', 'public, max-age=86400').send(favicon());
  });
  router.get('/docs/api', (_req, res) => {
    res.type('html').send(swaggerHtml);
  });
  router.get('/docs/api/swagger-init.js', (_req, res) => {
    res.type('application/javascript').send(swaggerInit);
  });
  for (const name of SWAGGER_UI_FILES) {
    router.get(`/docs/api/assets/${name}`, (_req, res, next) => {
      // `root`: the package lives under pnpm's `.pnpm` folder, a dot-folder send() refuses in a full path.
      res.sendFile(name, { root: swaggerDir(), maxAge: '1h' }, (err) => err && next(err));
    });
  }
  router.get(/^\/docs(\/.*)?$/, async (req: Request, res: Response, next) => {
    const name = (req.params[0] ?? '').replace(/^\/+|\/+$/g, '') || 'index';
    if (!/^[\w/-]+$/.test(name)) return next();
    const file = resolve(DOCS_DIR, `${name}.md`);
    const indexFile = resolve(DOCS_DIR, name, 'index.md');
    const found = [file, indexFile].find((f) => f.startsWith(DOCS_DIR.replace(/\/$/, '') + sep) && existsSync(f));
    if (!found) return next();
    const markdown = readFileSync(found, 'utf8');
    const title = /^#\s+(.+)$/m.exec(markdown)?.[1] ?? 'Docs';
    const docName = found.slice(DOCS_DIR.length, -'.md'.length);
    const { renderGuide } = await guides();
    res.type('html').send(page(title, renderGuide(markdown, docName)));
  });
  return router;
}
