import { crc32, deflateSync } from 'node:zlib';

const SIZE = 32;
const BACKGROUND = [0x1d, 0x24, 0x30]; // the guides' text colour
const DOT = [0x7c, 0xc4, 0xff];

/** The icon's pixel at (x, y), RGBA: a rounded dark square holding a light dot (a mind). */
function pixel(x: number, y: number): number[] {
  const cx = x + 0.5 - SIZE / 2;
  const cy = y + 0.5 - SIZE / 2;
  // Rounded corners: outside a radius-6 arc at each corner is transparent.
  const r = 6;
  const dx = Math.max(Math.abs(cx) - (SIZE / 2 - r), 0);
  const dy = Math.max(Math.abs(cy) - (SIZE / 2 - r), 0);
  if (dx * dx + dy * dy > r * r) return [0, 0, 0, 0];
  return Math.hypot(cx, cy) <= 8 ? [...DOT, 255] : [...BACKGROUND, 255];
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** The icon as a PNG (RGBA, 8 bits a channel). */
function png(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIZE, 0);
  header.writeUInt32BE(SIZE, 4);
  header.set([8, 6, 0, 0, 0], 8); // depth 8, RGBA, deflate, no filter method, no interlace
  const rows: number[] = [];
  for (let y = 0; y < SIZE; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < SIZE; x++) rows.push(...pixel(x, y));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `/favicon.ico`: one 32x32 image, stored as a PNG inside the ICO container (every browser reads that). */
export function faviconIco(): Buffer {
  const image = png();
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}
