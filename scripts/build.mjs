// Compiles the server and the agent into JavaScript (server/dist, agent/dist) with source maps, so they
// run on plain node: no TypeScript loader in the process, and stack traces still name the .ts lines.
// It also builds the console, the web page the server serves at /console (console/build.mjs: a browser
// bundle with content-hashed names, console/dist), and packs the SDK's stdio bridge `mind-mcp` into the
// tarball the server serves at /downloads/mindservice-sdk.tgz (sdk/build-bridge.mjs).
// `pnpm install` runs it (the root `prepare` script); the bins run it again when a source is newer
// than the build (scripts/test.mjs does so before the tests spawn them).
//
// Usage: node scripts/build.mjs [--if-stale]
//
// Each package is bundled with esbuild: its own src and the workspace packages it imports (contract,
// sdk) go in; the npm packages it declares stay outside and load from node_modules as before. The
// dynamic import() of a module (MCP on the first /mcp request) stays a chunk of its own, loaded then.
//
// Code that finds files next to itself (`import.meta.url`: the docs folder, the embedder's worker
// module) sees the path its module would have if compiled one to one, src/a/b.ts -> dist/a/b.js, so
// paths relative to it mean what they mean in src. The embedder's worker is built at that path.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceOutputs } from './replace-outputs.mjs';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

/** What is built, and which sources a build depends on (for the staleness check). */
const TARGETS = {
  server: {
    dir: 'server',
    entries: ['cli.ts', 'embeddings/local-worker.ts'],
    sources: ['server/src', 'contract/src'],
  },
  agent: {
    dir: 'agent',
    entries: ['cli.ts'],
    sources: ['agent/src', 'sdk/src', 'contract/src'],
  },
  console: {
    dir: 'console',
    output: 'dist/index.html',
    sources: ['console/src', 'console/build.mjs', 'sdk/src', 'contract/src'],
    // A browser bundle, not a node package: console/build.mjs builds it; answers what the build prints.
    async build(esbuild) {
      const { buildConsole } = await import('../console/build.mjs');
      const { gzip } = await buildConsole(esbuild, ROOT);
      return `the console's script: ${(gzip / 1024).toFixed(1)} KB gzip-compressed`;
    },
  },
  // `mind-mcp` packed as a tarball with no dependencies, served at /downloads/mindservice-sdk.tgz.
  bridge: {
    dir: 'sdk',
    output: 'packed/mindservice-sdk.tgz',
    label: 'sdk/packed/mindservice-sdk.tgz',
    sources: ['sdk/src', 'sdk/build-bridge.mjs', 'LICENSE'],
    async build(esbuild) {
      const { buildBridgeTarball } = await import('../sdk/build-bridge.mjs');
      await buildBridgeTarball(esbuild, ROOT);
    },
  },
};

const BUILD_INPUTS = ['scripts/build.mjs', 'scripts/replace-outputs.mjs', 'tsconfig.base.json', 'pnpm-lock.yaml'];

function newestMtime(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** True when the target's build is missing or older than a file it is built from. */
export function isStale(name) {
  const target = TARGETS[name];
  const built = statSync(join(ROOT, target.dir, target.output ?? 'dist/cli.js'), { throwIfNoEntry: false });
  if (!built) return true;
  const inputs = [...target.sources, ...BUILD_INPUTS, `${target.dir}/package.json`];
  return inputs.some((input) => newestMtime(join(ROOT, input)) > built.mtimeMs);
}

/** Rewrites `import.meta.url` in the package's own modules to their one-to-one compiled path. */
function compiledPathOfImportMetaUrl(srcDir) {
  return {
    name: 'import-meta-url-as-compiled',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(srcDir + sep)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const compiled = relative(srcDir, args.path).split(sep).join('/').replace(/\.ts$/, '.js');
        // Every output file lives somewhere under dist/: the URL is taken from there, whatever the depth.
        const url = `new URL(${JSON.stringify(compiled)}, import.meta.url.slice(0, import.meta.url.lastIndexOf('/dist/') + 6)).href`;
        return { contents: source.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

async function buildTarget(esbuild, name) {
  const target = TARGETS[name];
  const pkgDir = join(ROOT, target.dir);
  const srcDir = join(pkgDir, 'src');
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  // The package's npm dependencies load from its node_modules; workspace packages are compiled in.
  const external = Object.entries(pkg.dependencies ?? {})
    .filter(([, version]) => !String(version).startsWith('workspace:'))
    .map(([dependency]) => dependency);
  const outdir = join(pkgDir, 'dist');
  const { outputFiles } = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: target.entries.map((entry) => join(srcDir, entry)),
    outbase: srcDir,
    outdir,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external,
    // CommonJS code compiled in (the agent's zod and ts-rest) may call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [compiledPathOfImportMetaUrl(srcDir)],
    logLevel: 'warning',
    write: false,
  });
  // Chunks before the entries that import them.
  replaceOutputs(outdir, outputFiles, (file) => !relative(outdir, file.path).startsWith('chunks'));
}

/** What the last build's targets had to say (the command line below prints it). */
let notes = [];

/** Builds the named targets (all by default); with `onlyStale`, only those older than their sources. Answers the targets built. */
export async function build({ targets = Object.keys(TARGETS), onlyStale = false } = {}) {
  const todo = onlyStale ? targets.filter(isStale) : targets;
  if (todo.length === 0) return [];
  const esbuild = await import('esbuild');
  notes = [];
  for (const name of todo) {
    const note = await (TARGETS[name].build ?? ((bundler) => buildTarget(bundler, name)))(esbuild);
    if (note) notes.push(note);
  }
  return todo;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const built = await build({ onlyStale: process.argv.includes('--if-stale') });
  const took = Math.round(performance.now() - started);
  const names = built.map((name) => TARGETS[name].label ?? `${name}/dist`);
  const what = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0];
  const said = notes.length ? ` (${notes.join('; ')})` : '';
  console.log(built.length ? `Built ${what} in ${took} ms${said}.` : 'The build is up to date.');
}
