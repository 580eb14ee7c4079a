import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { ERROR_MESSAGES } from '@mindservice/contract';
import express from 'express';
import { ApiError } from './api-error.js';
import { parseJsonInPieces } from './json-in-pieces.js';

/** JSON nested deeper than this is refused: nothing in the API nests so deep, and deep values are costly to walk and write. */
export const MAX_JSON_DEPTH = 64;

type Parser = ReturnType<typeof express.json>;
const parsers = new Map<string, Parser>();

/**
 * body-parser's reader for a limit, made once: 'json' parses JSON, 'bytes' gives the bytes as sent
 * (with the same limit, Content-Encoding and length checks). The limit counts bytes after any
 * Content-Encoding is undone.
 */
function parserFor(kind: 'json' | 'bytes', limit: number): Parser {
  const key = `${kind} ${limit}`;
  let parser = parsers.get(key);
  if (!parser) {
    parser = kind === 'json' ? express.json({ limit }) : express.raw({ limit, type: () => true });
    parsers.set(key, parser);
  }
  return parser;
}

const runParser = (parser: Parser, req: IncomingMessage, res: ServerResponse) =>
  new Promise<void>((done, fail) => parser(req as never, res as never, (err?: unknown) => (err ? fail(err) : done())));

/** True when a request says a body follows (the pipeline closes the connection rather than read one it refuses). */
export const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The media type body-parser reads as JSON (parameters such as a charset aside). */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/** JSON in UTF-8, said or implied: the bytes can be parsed in pieces. Any other charset takes body-parser's path (which refuses or decodes it). */
const UTF8_JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/**
 * Reads a JSON body of at most `limit` bytes; undefined when the request has none. A body sent as
 * anything but JSON is a 415 saying so (not a missing body). `inPieces` is for a route whose
 * handler checks its body in pieces (a whole-mind import): the body is parsed in pieces too, with
 * other requests served between them, and checkJson is left to the handler.
 */
export async function readJsonBody(
  req: IncomingMessage & { body?: unknown },
  res: ServerResponse,
  limit: number,
  inPieces = false,
): Promise<unknown> {
  const contentType = req.headers['content-type'];
  if (hasBody(req) && !JSON_TYPE.test(contentType ?? '')) {
    // The body stays unread: the connection closes after the answer.
    res.setHeader('Connection', 'close');
    throw ApiError.of(415, 'content_type_unsupported', ERROR_MESSAGES.contentTypeUnsupported(contentType));
  }
  if (inPieces && UTF8_JSON_TYPE.test(contentType ?? '')) return readJsonInPieces(req, res, limit);
  await runParser(parserFor('json', limit), req, res);
  if (!inPieces) checkJson(req.body, 'body');
  return req.body;
}

/**
 * The bytes as sent, parsed in pieces (json-in-pieces.ts). A body that is not a JSON object or
 * array goes through body-parser's JSON reader after all, so that it is answered exactly as on
 * every other route (the same 400 and message, an empty body read as {}).
 */
async function readJsonInPieces(req: IncomingMessage & { body?: unknown }, res: ServerResponse, limit: number): Promise<unknown> {
  await runParser(parserFor('bytes', limit), req, res);
  const bytes = req.body;
  if (!Buffer.isBuffer(bytes)) return undefined;
  const parsed = await parseJsonInPieces(bytes);
  if (parsed) return parsed.value;
  const again = Object.assign(Readable.from([bytes]), {
    headers: { 'content-type': 'application/json', 'content-length': String(bytes.length) },
  }) as unknown as IncomingMessage & { body?: unknown };
  await runParser(parserFor('json', limit), again, res);
  return again.body;
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
