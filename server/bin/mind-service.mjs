#!/usr/bin/env node
// Runs the compiled CLI (server/dist, built by `pnpm install`) on plain node, in this process (signals
// reach the service directly). Stack traces name the TypeScript lines through the source maps. A build
// older than the sources is redone first (scripts/build.mjs, under a second).
import { build } from '../../scripts/build.mjs';

process.setSourceMapsEnabled(true);
await build({ targets: ['server'], onlyStale: true });
// The console's page (console/dist) too, when a source of it is newer; a failed build leaves the API serving.
await build({ targets: ['console'], onlyStale: true }).catch((err) => console.error(`The console was not rebuilt: ${err.message}`));
// The mind-mcp tarball served at /downloads/mindservice-sdk.tgz, when a source of the bridge is newer.
await build({ targets: ['bridge'], onlyStale: true }).catch((err) => console.error(`The mind-mcp tarball was not rebuilt: ${err.message}`));
await import('../dist/cli.js');
