#!/usr/bin/env node
// `mind-mcp`: a mind's MCP tools over stdio, for clients that only launch local commands. It forwards
// every message to the service's `/mcp` with the Mind Key (MIND_URL, MIND_KEY). stdout carries JSON-RPC
// only; everything for a human goes to stderr, never a key (a MIND_URL holding one is refused).
import { SDK_VERSION } from './core/options.js';
import { StdioBridge } from './mcp/bridge.js';
import { BridgeConfigError, bridgeConfigFrom, redactKeys } from './mcp/config.js';
import { answerUnconfigured } from './mcp/unconfigured.js';

// Whatever a line says (a URL, an error's message), no Mind Key reaches stderr.
const report = (text: string) => process.stderr.write(`${redactKeys(text, process.env.MIND_KEY?.trim())}\n`);

try {
  const { endpoint, mindKey } = bridgeConfigFrom(process.env);
  report(`mind-mcp ${SDK_VERSION}: MCP over stdio, forwarded to ${endpoint.href}`);
  // The client went away: nobody is left to answer.
  process.stdout.on('error', () => process.exit(0));
  await new StdioBridge({
    endpoint,
    mindKey,
    userAgent: `mind-mcp/${SDK_VERSION}`,
    input: process.stdin,
    send: (line) => process.stdout.write(`${line}\n`),
    report,
  }).run();
  // stdin closed and every answer written.
  process.stdout.write('', () => process.exit(0));
} catch (err) {
  const message = err instanceof BridgeConfigError ? err.message : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  for (const line of message.split('\n')) report(`mind-mcp: ${line}`);
  if (err instanceof BridgeConfigError && !process.stdin.isTTY) {
    // Launched by a client: it reads the reason as the answer to its `initialize`, not "Connection closed".
    const answer = `mind-mcp is not configured: ${message.split('\n').join('; ')}. MIND_URL and MIND_KEY go in the "env" of this server's entry in the MCP client's configuration.`;
    process.stdout.on('error', () => process.exit(2));
    await answerUnconfigured(process.stdin, (line) => process.stdout.write(`${line}\n`), redactKeys(answer, process.env.MIND_KEY?.trim()));
    process.stdout.write('', () => process.exit(2));
  } else {
    process.exit(err instanceof BridgeConfigError ? 2 : 1);
  }
}
