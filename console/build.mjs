// Builds the console (console/src, Preact) into console/dist for the server to serve at /console:
// dist/index.html, which names the content-hashed script and style sheet under dist/assets/. The
// service serves index.html `no-cache` and the assets as immutable, so a new build is picked up on
// the next load and a browser never asks twice for a file it has. scripts/build.mjs runs this (so
// `pnpm install` and `pnpm build` do), never the server at request time.
//
// The SDK's browser entry is bundled in (the typed client is the console's only way to the API), with
// the contract, zod and ts-rest; zod-to-openapi is replaced by the SDK's shim as in the SDK's own build.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The most compressed JavaScript the first page load may bring (issue 34): the build fails above it. */
export const MAX_FIRST_LOAD_JS_GZIP = 300 * 1024;

const html = (script, style) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Console - Mind Service</title>
<link rel="icon" href="/favicon.ico">
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading the console...</p></div>
<noscript><p>The console needs JavaScript. The API itself is described at <a href="/docs/api">/docs/api</a>.</p></noscript>
</body>
</html>
`;

/** Builds console/dist; answers the sizes of the first load's script (raw and gzip-compressed bytes). */
export async function buildConsole(esbuild, root) {
  const dir = join(root, 'console');
  const outdir = join(dir, 'dist');
  const { outputFiles, metafile } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { app: join(dir, 'src/main.tsx') },
    outdir,
    entryNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: { '@asteasolutions/zod-to-openapi': join(root, 'sdk/src/core/openapi-shim.ts') },
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    sourcemap: 'linked',
    sourcesContent: false,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
    write: false,
  });
  const entry = Object.entries(metafile.outputs).find(([, output]) => output.entryPoint);
  if (!entry) throw new Error('console build: no entry output');
  const [scriptPath, scriptOutput] = entry;
  const stylePath = scriptOutput.cssBundle;
  if (!stylePath) throw new Error('console build: no style sheet (main.tsx imports styles.css)');
  const asset = (path) => relative(outdir, join(root, path)).split('\\').join('/');
  const script = outputFiles.find((file) => file.path === join(root, scriptPath));
  const gzip = gzipSync(script.contents, { level: 9 }).length;
  if (gzip > MAX_FIRST_LOAD_JS_GZIP) {
    throw new Error(
      `console build: ${gzip} bytes of gzip-compressed JavaScript, over the ${MAX_FIRST_LOAD_JS_GZIP} the first load may bring`,
    );
  }
  const files = [...outputFiles, { path: join(outdir, 'index.html'), contents: html(asset(scriptPath), asset(stylePath)) }];
  replaceOutputs(outdir, files);
  return { script: asset(scriptPath), bytes: script.contents.length, gzip };
}

/** Writes each file aside and renames it into place, index.html last; then removes an older build's files. */
function replaceOutputs(outdir, files) {
  const ordered = [...files.filter((f) => !f.path.endsWith('index.html')), ...files.filter((f) => f.path.endsWith('index.html'))];
  for (const file of ordered) {
    mkdirSync(dirname(file.path), { recursive: true });
    const aside = `${file.path}.${process.pid}.tmp`;
    writeFileSync(aside, file.contents);
    renameSync(aside, file.path);
  }
  const written = new Set(files.map((file) => file.path));
  const leftovers = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) => {
      const path = join(d, e.name);
      return e.isDirectory() ? leftovers(path) : written.has(path) || path.endsWith('.tmp') ? [] : [path];
    });
  for (const path of leftovers(outdir)) rmSync(path, { force: true });
}
