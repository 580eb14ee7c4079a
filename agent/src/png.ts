// Reads a PNG's size from its header, so a screenshot result can say width and height without a decoder.
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk (bytes 16..24); throws when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } {
  // signature (8) + chunk length (4) + "IHDR" (4) + width (4) + height (4)
  if (png.length < 24 || !png.subarray(0, 8).equals(SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error('not a PNG image');
  }
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
