import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { ApiError } from './api-error.js';

/** JSON nested deeper than this is refused: nothing in the API nests so deep, and deep values are costly to walk and write. */
export const MAX_JSON_DEPTH = 64;

type Parser = ReturnType<typeof express.json>;
const parsers = new Map<number, Parser>();

/** body-parser's JSON reader for a limit; the limit counts bytes after any Content-Encoding is undone. */
function parserFor(limit: number): Parser {
  let parser = parsers.get(limit);
  if (!parser) {
    parser = express.json({ limit });
    parsers.set(limit, parser);
  }
  return parser;
}

/** True when a request says a body follows (the pipeline closes the connection rather than read one it refuses). */
export const hasBody = (req: IncomingMessage) => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Reads a JSON body of at most `limit` bytes; undefined when the request has none or is not JSON. */
export async function readJsonBody(req: IncomingMessage & { body?: unknown }, res: ServerResponse, limit: number): Promise<unknown> {
  await new Promise<void>((done, fail) => parserFor(limit)(req as never, res as never, (err?: unknown) => (err ? fail(err) : done())));
  if (nestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
    throw new ApiError(400, `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return req.body;
}

/** Walks objects and arrays without recursion (a deep value must not overflow the stack here). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
