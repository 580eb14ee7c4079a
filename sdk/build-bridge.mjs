// The SDK's stdio bridge as an installable tarball: sdk/packed/mindservice-sdk.tgz, which the service
// serves at GET /downloads/mindservice-sdk.tgz so that `npx -y -p <server>/downloads/mindservice-sdk.tgz
// mind-mcp` works from any machine that reaches the server, before (or without) an npm publication.
//
// The package holds `mind-mcp` alone: one esbuild bundle that imports Node built-ins only, and a
// package.json with no dependencies, so npx needs nothing but the server (no registry, no workspace).
// The typed client, with its declarations, is the full pack (`pnpm --filter @mindservice/sdk pack`):
// its declaration build takes seconds, too slow for a step that runs on every `pnpm install`.
//
// The tarball is the same bytes for the same sources (fixed dates and order), so its ETag only
// changes when the bridge does.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Where the tarball is written, relative to the repository root. */
export const PACKED_BRIDGE = 'sdk/packed/mindservice-sdk.tgz';

/** npm's own fixed date for the entries of a tarball it packs (1985-10-26T08:15:00Z). */
const ENTRY_MTIME = 499162500;

/** One ustar header block (512 bytes) for a regular file. */
function tarHeader(name, size, mode) {
  const header = Buffer.alloc(512);
  const field = (value, offset, length) => header.write(value, offset, length, 'utf8');
  const octal = (value, offset, length) => field(value.toString(8).padStart(length - 1, '0'), offset, length - 1);
  if (Buffer.byteLength(name) > 100) throw new Error(`a tar entry name longer than 100 bytes: ${name}`);
  field(name, 0, 100);
  octal(mode, 100, 8);
  octal(0, 108, 8); // uid
  octal(0, 116, 8); // gid
  octal(size, 124, 12);
  octal(ENTRY_MTIME, 136, 12);
  field('0', 156, 1); // a regular file
  field('ustar\u000000', 257, 8);
  // The checksum is taken with its own field as eight spaces.
  header.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of header) sum += byte;
  field(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8);
  return header;
}

/** A gzip-compressed tar of `files` ([name, contents, mode]), in the order given. */
export function tarGzip(files) {
  const blocks = [];
  for (const [name, contents, mode] of files) {
    blocks.push(tarHeader(name, contents.length, mode), contents);
    const padding = (512 - (contents.length % 512)) % 512;
    if (padding) blocks.push(Buffer.alloc(padding));
  }
  blocks.push(Buffer.alloc(1024)); // the end: two empty blocks
  return gzipSync(Buffer.concat(blocks), { level: 9 });
}

const README = (version) => `# @mindservice/sdk ${version}: mind-mcp

\`mind-mcp\` serves one mind's MCP tools over stdin and stdout, for MCP clients that only launch a
local command, and forwards every message to the service's \`/mcp\` with the Mind Key as
\`Authorization: Bearer\`. Settings: \`MIND_URL\` (the service's address) and \`MIND_KEY\` (the Mind Key).

This tarball is served by the service itself at \`/downloads/mindservice-sdk.tgz\`:

    npx -y -p https://your-server/downloads/mindservice-sdk.tgz mind-mcp

It holds the command only, with no dependencies. The typed TypeScript client is the SDK's full
package, packed from the repository with \`pnpm --filter @mindservice/sdk pack\` (see docs/sdk.md
there, or /docs/sdk on the service).
`;

/** Builds the tarball at `outFile` (default: PACKED_BRIDGE under `root`); answers its size in bytes. */
export async function buildBridgeTarball(esbuild, root, outFile = join(root, PACKED_BRIDGE)) {
  const sdk = JSON.parse(readFileSync(join(root, 'sdk/package.json'), 'utf8'));
  const { outputFiles } = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [join(root, 'sdk/src/mind-mcp.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The source's own hashbang line is kept by esbuild; nothing else may be loaded from outside.
    external: [],
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
    outfile: 'mind-mcp.js',
  });
  const bin = outputFiles[0].contents;
  const code = Buffer.from(bin).toString('utf8');
  const imported = [...code.matchAll(/^import .* from ["']([^"']+)["'];$/gm)].map((m) => m[1]);
  const foreign = imported.filter((name) => !builtinModules.includes(name.replace(/^node:/, '')));
  if (foreign.length > 0) throw new Error(`mind-mcp's bundle imports more than Node built-ins: ${foreign.join(', ')}`);
  const manifest = {
    name: sdk.name,
    version: sdk.version,
    description: "mind-mcp: a Mind Service mind's MCP tools over stdio, forwarded to the service's /mcp.",
    license: sdk.license,
    type: 'module',
    bin: { 'mind-mcp': 'dist/mind-mcp.js' },
    engines: sdk.engines,
  };
  const tarball = tarGzip([
    ['package/package.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 0o644],
    ['package/README.md', Buffer.from(README(sdk.version)), 0o644],
    ['package/LICENSE', readFileSync(join(root, 'LICENSE')), 0o644],
    ['package/dist/mind-mcp.js', Buffer.from(bin), 0o755],
  ]);
  // Written aside and renamed: a server answering meanwhile sends the old tarball or the new, whole.
  mkdirSync(dirname(outFile), { recursive: true });
  const aside = `${outFile}.${process.pid}.tmp`;
  writeFileSync(aside, tarball);
  renameSync(aside, outFile);
  return tarball.length;
}
