import { createHash } from 'node:crypto';

// The local embedder's cache files (the word table, WordNet's links): an 8-byte magic, a format
// number, the length of a JSON header that carries the payload's SHA-256, the header, the payload.

const PREFIX = 16;

/** The file for `header` (sha256 added last) and the payload made of `parts` in order. */
export function encodeCheckedFile(magic: Buffer, format: number, header: object, parts: readonly ArrayBufferView[]): Buffer {
  const payload = Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
  const json = Buffer.from(JSON.stringify({ ...header, sha256: createHash('sha256').update(payload).digest('hex') }), 'utf8');
  const fixed = Buffer.alloc(PREFIX - magic.length);
  fixed.writeUInt32LE(format, 0);
  fixed.writeUInt32LE(json.length, 4);
  return Buffer.concat([magic, fixed, json, payload]);
}

export interface CheckedFile<H> {
  header: H;
  payload: Buffer;
  /** The next `length` bytes of the payload, copied (aligned for typed arrays). */
  take(length: number): ArrayBuffer;
  /** Bytes of the payload not taken yet. */
  rest(): Buffer;
}

/** The header and payload of a file `encodeCheckedFile` wrote, or why it cannot be used (`what`: the file's kind, for the reason). */
export function decodeCheckedFile<H>(file: Buffer, magic: Buffer, format: number, what: string): CheckedFile<H> | string {
  if (file.length < PREFIX || !file.subarray(0, magic.length).equals(magic)) return `not a ${what}`;
  const found = file.readUInt32LE(magic.length);
  if (found !== format) return `format ${found}, expected ${format}`;
  const jsonLength = file.readUInt32LE(magic.length + 4);
  let header: H & { sha256?: string };
  try {
    header = JSON.parse(file.toString('utf8', PREFIX, PREFIX + jsonLength));
  } catch {
    return 'unreadable header';
  }
  const payload = file.subarray(PREFIX + jsonLength);
  if (createHash('sha256').update(payload).digest('hex') !== header.sha256) return 'checksum mismatch';
  let at = 0;
  return {
    header,
    payload,
    take(length) {
      const part = payload.subarray(at, at + length);
      at += length;
      return new Uint8Array(part).buffer;
    },
    rest: () => payload.subarray(at),
  };
}
