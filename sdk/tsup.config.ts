import { resolve } from 'node:path';
import { defineConfig } from 'tsup';

// The contract is not published on its own: src/contract.ts imports it by path, so its code and types are
// bundled into the SDK. Of its dependencies only @ts-rest/core and zod remain (the SDK's own dependencies);
// zod-to-openapi, which only the OpenAPI document needs, is replaced by a shim whose `.openapi()` returns
// the schema unchanged. The published package therefore depends on @ts-rest/core and zod alone.
//
// The second build is `mind-mcp` (the stdio bridge to /mcp, the published package's `bin`): ESM only, with
// its hashbang, Node built-ins only. The builds run at once, so the first one's cleaning spares its files.
const MIND_MCP_FILES = ['mind-mcp.js', 'mind-mcp.js.map'];
const ADAPTER_FILES = ['anthropic-memory.*', 'openai-agents.*'];

export default defineConfig([
  {
    entry: ['src/index.ts'],
    format: ['esm', 'cjs'],
    platform: 'node',
    target: 'node20',
    external: ['@ts-rest/core', 'zod'],
    esbuildOptions(options) {
      options.alias = { '@asteasolutions/zod-to-openapi': resolve(__dirname, 'src/openapi-shim.ts') };
    },
    dts: {
      // The contract's imports of @ts-rest/core and zod resolve to the SDK's own copies, so the declarations
      // name them as the SDK's dependencies (TS2742 otherwise).
      compilerOptions: {
        baseUrl: '.',
        paths: {
          '@ts-rest/core': ['./node_modules/@ts-rest/core'],
          zod: ['./node_modules/zod'],
        },
      },
    },
    sourcemap: true,
    clean: [...MIND_MCP_FILES, ...ADAPTER_FILES].map((file) => `!${file}`),
    splitting: false,
  },
  // The adapters, a build of their own: they name the client's types through the package itself
  // (`@mindservice/sdk`, so one MindClient is declared), and the frameworks' SDKs by type only
  // (optional peers). No code of theirs is in the main entry, and none of the main entry in theirs.
  {
    entry: ['src/anthropic-memory.ts', 'src/openai-agents.ts'],
    format: ['esm', 'cjs'],
    platform: 'neutral',
    target: 'es2022',
    external: ['@mindservice/sdk', '@anthropic-ai/sdk', '@openai/agents-core'],
    dts: true,
    sourcemap: true,
    clean: false,
    splitting: false,
  },
  {
    entry: ['src/mind-mcp.ts'],
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    clean: false,
    splitting: false,
  },
]);
