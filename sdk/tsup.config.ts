import { join, resolve } from 'node:path';
import { defineConfig } from 'tsup';

const contractSrc = resolve(__dirname, '../contract/src');

// The contract is not published on its own: its code and types are bundled into the SDK. Its runtime
// dependencies (@ts-rest/core, zod, zod-to-openapi) stay real dependencies, shared with the application.
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  platform: 'node',
  target: 'node20',
  noExternal: ['@mindservice/contract'],
  external: ['@ts-rest/core', 'zod', '@asteasolutions/zod-to-openapi'],
  dts: {
    // rollup-plugin-dts keeps anything under node_modules external, so the contract's types are reached
    // at their sources; its dependencies resolve from the SDK's node_modules, so the declarations name
    // them as the SDK's own dependencies (TS2742 otherwise).
    compilerOptions: {
      baseUrl: '.',
      paths: {
        '@mindservice/contract': [join(contractSrc, 'index.ts')],
        '@ts-rest/core': ['./node_modules/@ts-rest/core'],
        zod: ['./node_modules/zod'],
        '@asteasolutions/zod-to-openapi': ['./node_modules/@asteasolutions/zod-to-openapi'],
      },
    },
  },
  sourcemap: true,
  clean: true,
  splitting: false,
});
