// `mind-mcp` started without usable settings (MIND_URL, MIND_KEY): an MCP client that launched it
// would only see its output end ("Connection closed"). So it stays to answer each request read,
// `initialize` first, with a JSON-RPC error that says which setting to fix, until stdin closes.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { BRIDGE_ERROR, errorResponse, isObject, isRequest, type JsonRpcMessage } from './messages.js';

/** Answers every request on `input` with the error `message`; resolves when `input` ends. */
export async function answerUnconfigured(input: Readable, send: (line: string) => void, message: string): Promise<void> {
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.trim() === '') continue;
    let body: unknown;
    try {
      body = JSON.parse(line);
    } catch {
      send(JSON.stringify(errorResponse(null, BRIDGE_ERROR.parse, 'Parse error: a line on stdin is not JSON')));
      continue;
    }
    const messages = (Array.isArray(body) ? body : [body]).filter(isObject) as JsonRpcMessage[];
    // Notifications and responses expect no answer.
    for (const request of messages.filter(isRequest)) {
      send(JSON.stringify(errorResponse(request.id, BRIDGE_ERROR.unconfigured, message)));
    }
  }
}
