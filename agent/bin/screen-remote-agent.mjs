#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so the command works from the workspace and when installed.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
try {
  process.exit(await main(process.argv.slice(2)));
} catch (error) {
  console.error(`screen-remote-agent: unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
