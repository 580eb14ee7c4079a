import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { replaceOutputs } from '../scripts/replace-outputs.mjs';

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
    alias: { '@asteasolutions/zod-to-openapi': join(root, 'sdk/src/openapi-shim.ts') },
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
  // index.html names the hashed assets: it is written after them.
  replaceOutputs(outdir, files, (file) => file.path.endsWith('index.html'));
  return { script: asset(scriptPath), bytes: script.contents.length, gzip };
}
