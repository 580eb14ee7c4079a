import { resolve } from 'node:path';
import { defineConfig } from 'tsup';

// The contract is not published on its own: src/contract.ts imports it by path, so its code and types are
// bundled into the SDK. Of its dependencies only @ts-rest/core and zod remain (the SDK's own dependencies);
// zod-to-openapi, which only the OpenAPI document needs, is replaced by a shim whose `.openapi()` returns
// the schema unchanged. The published package therefore depends on @ts-rest/core and zod alone.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  external: ['@ts-rest/core', 'zod'],
  esbuildOptions(options) {
    options.alias = { '@asteasolutions/zod-to-openapi': resolve(__dirname, 'src/core/openapi-shim.ts') };
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
  clean: true,
  splitting: false,
});
