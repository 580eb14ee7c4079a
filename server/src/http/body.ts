import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_MESSAGES } from '@mindservice/contract';
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
export const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The media type body-parser reads as JSON (parameters such as a charset aside). */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * Reads a JSON body of at most `limit` bytes; undefined when the request has none. A body sent as
 * anything but JSON is a 415 saying so (not a missing body). `checked: false` leaves checkJson to
 * the handler (a route whose handler checks its body in pieces).
 */
export async function readJsonBody(
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  limit: number,
  checked = true,
): Promise<unknown> {
  const contentType = req.headers['content-type'];
  if (hasBody(req) && !JSON_TYPE.test(contentType ?? '')) {
    // The body stays unread: the connection closes after the answer.
    res.setHeader('Connection', 'close');
    throw ApiError.of(415, 'content_type_unsupported', ERROR_MESSAGES.contentTypeUnsupported(contentType));
  }
  await new Promise<void>((done, fail) => parserFor(limit)(req as never, res as never, (err?: unknown) => (err ? fail(err) : done())));
  if (checked) checkJson(req.body, 'body');
  return req.body;
}

const nulProblem = (path: string) => ApiError.invalidField(path, 'must not contain the NUL character (U+0000)');

/**
 * Refuses what no route accepts and not every database can store: JSON nested deeper than
 * MAX_JSON_DEPTH, and strings with a NUL character (PostgreSQL cannot store one). Walks without
 * recursion, so a deep value cannot overflow the stack here.
 */
export function checkJson(value: unknown, location: string): void {
  if (typeof value === 'string') {
    if (value.includes('\0')) throw nulProblem(location);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const stack: Array<[node: object, depth: number, path: string]> = [[value, 1, location]];
  while (stack.length > 0) {
    const [node, depth, path] = stack.pop()!;
    if (depth > MAX_JSON_DEPTH) throw ApiError.of(400, 'json_too_deep', ERROR_MESSAGES.jsonTooDeep(location, MAX_JSON_DEPTH));
    const visit = (child: unknown, key: string | number) => {
      if (typeof child === 'string') {
        if (child.includes('\0')) throw nulProblem(`${path}.${key}`);
      } else if (child !== null && typeof child === 'object') {
        stack.push([child, depth + 1, `${path}.${key}`]);
      }
    };
    if (Array.isArray(node)) node.forEach(visit);
    else for (const key in node) visit((node as Record<string, unknown>)[key], key);
  }
}
