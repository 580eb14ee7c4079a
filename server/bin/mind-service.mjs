#!/usr/bin/env node
// Runs the TypeScript CLI in this process through tsx's loader (signals reach the service directly).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
