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

export default defineConfig([
  {
    // The adapters are entries of their own: they import the client's types only, so the main entry
    // holds none of their code, and the frameworks' SDKs (their types only) stay optional peers.
    entry: ['src/index.ts', 'src/anthropic-memory.ts', 'src/openai-agents.ts'],
    format: ['esm', 'cjs'],
    platform: 'node',
    target: 'node20',
    external: ['@ts-rest/core', 'zod', '@anthropic-ai/sdk', '@openai/agents-core'],
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
    clean: MIND_MCP_FILES.map((file) => `!${file}`),
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
