#!/usr/bin/env node
// `mind-mcp` in the workspace: runs the TypeScript source through tsx's loader (tsx is the workspace
// root's). The published package's `mind-mcp` is the bundle tsup builds: dist/mind-mcp.js (publishConfig.bin).
import { register } from 'tsx/esm/api';

register();
await import('../src/mind-mcp.ts');
