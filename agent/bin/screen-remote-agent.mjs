#!/usr/bin/env node
// Runs the compiled CLI (agent/dist, built by `pnpm install`) on plain node; stack traces name the
// TypeScript lines through the source maps. From a checkout, a build older than the sources is redone
// first (scripts/build.mjs, under a second).
import { build } from '../../scripts/build.mjs';

process.setSourceMapsEnabled(true);
await build({ targets: ['agent'], onlyStale: true });
const { main } = await import('../dist/cli.js');
try {
  process.exit(await main(process.argv.slice(2)));
} catch (error) {
  console.error(`screen-remote-agent: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
