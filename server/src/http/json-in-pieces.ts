import { setImmediate as nextTurn } from 'node:timers/promises';

/** Bytes read between two turns of the event loop (a few milliseconds of work). */
const BYTES_PER_TURN = 256 * 1024;
/** Bytes of array items handed to one JSON.parse. */
const BYTES_PER_BATCH = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** A text this reader leaves to the whole parse (never shown: the caller parses the text whole for the exact error). */
class NotInPieces extends Error {}

/**
 * Parses a JSON text (UTF-8) the way JSON.parse does, in pieces with other work served between
 * them: JSON.parse of a 24 MB document holds the event loop for a few hundred milliseconds, and
 * so does decoding it into one string. The outer object or array and the arrays directly in it are
 * read here; their items go to JSON.parse in batches of about 64 kB. Answers undefined for a text
 * that is not an object or array or is not valid JSON: the caller parses it whole to say why.
 */
export async function parseJsonInPieces(text: Buffer): Promise<{ value: unknown } | undefined> {
  try {
    return { value: await new PieceReader(text).document() };
  } catch {
    // Not JSON (or not JSON this reader takes apart): the whole parse decides, as for any body.
    return undefined;
  }
}

class PieceReader {
  private at = 0;
  private lastTurn = 0;

  constructor(private readonly text: Buffer) {}

  async document(): Promise<unknown> {
    this.skipSpace();
    const first = this.text[this.at];
    const value = first === OPEN_BRACE ? await this.object() : first === OPEN_BRACKET ? await this.array() : fail();
    this.skipSpace();
    if (this.at !== this.text.length) fail();
    return value;
  }

  /** The outer object: its values that are arrays are read in pieces, the others whole. */
  private async object(): Promise<Record<string, unknown>> {
    const object: Record<string, unknown> = {};
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === CLOSE_BRACE) {
      this.at++;
      return object;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.at] !== QUOTE) fail();
      const keyStart = this.at;
      const key = this.parse(keyStart, this.skipValue()) as string;
      this.skipSpace();
      if (this.text[this.at++] !== COLON) fail();
      this.skipSpace();
      const valueStart = this.at;
      const value = this.text[valueStart] === OPEN_BRACKET ? await this.array() : this.parse(valueStart, this.skipValue());
      // As JSON.parse: an own data property whatever the key ("__proto__" included), the last duplicate wins.
      Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      await this.maybeYield();
      this.skipSpace();
      const next = this.text[this.at++];
      if (next === CLOSE_BRACE) return object;
      if (next !== COMMA) fail();
    }
  }

  /** An array whose items are parsed in batches: the bytes from a batch's first item to its last, in brackets. */
  private async array(): Promise<unknown[]> {
    const items: unknown[] = [];
    this.at++;
    this.skipSpace();
    if (this.text[this.at] === CLOSE_BRACKET) {
      this.at++;
      return items;
    }
    let batchStart = this.at;
    for (;;) {
      this.skipSpace();
      const end = this.skipValue();
      this.skipSpace();
      const next = this.text[this.at++];
      if (next !== COMMA && next !== CLOSE_BRACKET) fail();
      if (next === CLOSE_BRACKET || end - batchStart >= BYTES_PER_BATCH) {
        const batch = JSON.parse(`[${this.text.toString('utf8', batchStart, end)}]`) as unknown[];
        for (const item of batch) items.push(item);
        if (next === CLOSE_BRACKET) return items;
        this.skipSpace();
        batchStart = this.at;
      }
      await this.maybeYield();
    }
  }

  /** Moves past the value at the reading position; answers where it ends. */
  private skipValue(): number {
    this.at = valueEnd(this.text, this.at);
    return this.at;
  }

  private parse(start: number, end: number): unknown {
    return JSON.parse(this.text.toString('utf8', start, end));
  }

  private skipSpace(): void {
    while (this.at < this.text.length && isSpace(this.text[this.at]!)) this.at++;
  }

  private async maybeYield(): Promise<void> {
    if (this.at - this.lastTurn < BYTES_PER_TURN) return;
    this.lastTurn = this.at;
    await nextTurn();
  }
}

/** The end of the value starting at `start` (its syntax is JSON.parse's to check): after a string, a bracket pair, or a word. */
function valueEnd(text: Buffer, start: number): number {
  const first = text[start];
  if (first === undefined) fail();
  if (first === QUOTE) return stringEnd(text, start);
  let at = start;
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    while (at < text.length) {
      const byte = text[at]!;
      if (isSpace(byte) || byte === COMMA || byte === CLOSE_BRACKET || byte === CLOSE_BRACE || byte === COLON) break;
      at++;
    }
    return at === start ? fail() : at;
  }
  let depth = 0;
  while (at < text.length) {
    const byte = text[at]!;
    if (byte === QUOTE) {
      at = stringEnd(text, at);
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
    else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) return at + 1;
    at++;
  }
  return fail();
}

/** The index after the string starting at `start` (a quote not escaped by an odd run of backslashes ends it). */
function stringEnd(text: Buffer, start: number): number {
  let at = start + 1;
  for (;;) {
    const quote = text.indexOf(QUOTE, at);
    if (quote < 0) fail();
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    at = quote + 1;
  }
}

function fail(): never {
  throw new NotInPieces();
}
