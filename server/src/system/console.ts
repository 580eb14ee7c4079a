import { existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
import helmet from 'helmet';
import { ApiError } from '../http/api-error.js';

// The console (docs/console.md): the web page at /console, built from the workspace package console/
// into console/dist by `pnpm install` / `pnpm build` (scripts/build.mjs), never here at request time.
// index.html names content-hashed assets: it is `no-cache` (a new build shows on the next load), the
// assets are immutable.
const CONSOLE_DIR = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/** The page's own script, style sheet and images only; no inline script, nothing from elsewhere. */
const CONSOLE_HEADERS = (() => {
  const headers: Array<[string, string | number | readonly string[]]> = [];
  const res = { setHeader: (name: string, value: string) => void headers.push([name, value]), removeHeader: () => undefined };
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        // The screenshots are shown from blob: URLs (fetched with the credential, never by <img src> of the API).
        imgSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // The page keeps its address out of other sites' logs; it never puts a credential in one anyway.
    referrerPolicy: { policy: 'no-referrer' },
  })({} as never, res as never, () => undefined);
  return headers;
})();

const setConsoleHeaders = (res: ServerResponse) => {
  for (const [name, value] of CONSOLE_HEADERS) res.setHeader(name, value);
};

/** Whether a path is the console's (the app hands these to consoleRouter). */
export const isConsolePath = (path: string) => path === '/console' || path.startsWith('/console/');

const notBuilt = () =>
  ApiError.of(
    404,
    'route_not_found',
    'The console is not built on this server: run `pnpm install` (or `pnpm build`) in the repository, then reload.',
    {
      details: [{ path: 'url', message: 'console/dist/index.html is missing' }],
    },
  );

/** /console/ (index.html), /console/assets/<hashed name>; /console redirects to /console/. `dir`: the build (tests). */
export function consoleRouter(dir = CONSOLE_DIR): Router {
  const CONSOLE_DIR = dir.endsWith('/') ? dir : `${dir}/`;
  const router = express.Router({ caseSensitive: true, strict: true });
  router.use((_req, res, next) => {
    setConsoleHeaders(res);
    next();
  });
  router.get('/console', (_req, res) => {
    res.redirect(301, '/console/');
  });
  router.get('/console/', (_req, res, next) => {
    if (!existsSync(`${CONSOLE_DIR}index.html`)) return next(notBuilt());
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile('index.html', { root: CONSOLE_DIR, lastModified: false, cacheControl: false }, (err) => err && next(err));
  });
  // A built asset's name starts with a letter, digit, `_` or `-`: `.` and `..` name folders (a 500 from sendFile).
  router.get(/^\/console\/assets\/([\w-][\w.-]*)$/, (req, res, next) => {
    const name = req.params[0]!;
    if (!isFile(`${CONSOLE_DIR}assets/${name}`)) return next();
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.sendFile(name, { root: `${CONSOLE_DIR}assets`, lastModified: false, cacheControl: false }, (err) => err && next(err));
  });
  return router;
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;
