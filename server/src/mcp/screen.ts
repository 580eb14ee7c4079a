// What `screenshot` answers beside the image: the image's size read from the PNG itself, the screen's
// size as the computer's agent reported it, and the scale between them. Commands take screen pixels;
// a model sees the (maybe scaled-down) image, so without the scale its clicks land elsewhere.
import type { ToolResult } from './types.js';

export interface PngSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from a PNG's IHDR chunk (the first, at byte 8); undefined when it is no PNG. */
export function pngSize(png: Buffer): PngSize | undefined {
  if (png.length < 24 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The screen's size from a computer as the route answers it (`screen: {width, height}` or null). */
export function screenOf(computer: unknown): PngSize | undefined {
  const screen = (computer as { screen?: { width?: unknown; height?: unknown } | null } | undefined)?.screen;
  return typeof screen?.width === 'number' && typeof screen.height === 'number'
    ? { width: screen.width, height: screen.height }
    : undefined;
}

/** Image pixels per screen pixel, to 4 places: 0.5 for a 2560-pixel screen shown 1280 wide. */
const scaleOf = (image: number, screen: number) => Math.round((image / screen) * 10_000) / 10_000;

/** The line before the image: its size, the screen's, and how to turn a point of the image into screen pixels. */
export function screenshotLine(image: PngSize | undefined, screen: PngSize | undefined): string {
  if (!image) return 'Screenshot (its size could not be read from the image).';
  const size = `width ${image.width}, height ${image.height}`;
  if (!screen) {
    return `Screenshot: ${size}; the computer has not reported its screen size, so commands take the pixels of an unscaled screenshot.`;
  }
  const scale = scaleOf(image.width, screen.width);
  const how =
    scale === 1
      ? 'commands take these pixels as they are'
      : `commands take screen pixels: a point x, y of this image is x / ${scale}, y / ${scale} on the screen`;
  return `Screenshot: ${size}, screen_width ${screen.width}, screen_height ${screen.height}, scale ${scale} (${how}).`;
}

/** The screenshot's tool result: the line, then the image. */
export function screenshotResult(png: Buffer, mimeType: string, screen: PngSize | undefined): ToolResult {
  return {
    content: [
      { type: 'text', text: screenshotLine(pngSize(png), screen) },
      { type: 'image', data: png.toString('base64'), mimeType },
    ],
  };
}

/**
 * A finished screenshot or zoom as `get_command` reads it carries its PNG as base64 in
 * `result.screenshot_b64`: as text a model cannot see it. Its JSON without the bytes, and the image.
 */
export function withoutPng(command: Record<string, unknown>): { command: Record<string, unknown>; png?: string } {
  const result = command.result as Record<string, unknown> | null | undefined;
  if (typeof result?.screenshot_b64 !== 'string') return { command };
  const { screenshot_b64: png, ...rest } = result;
  return { command: { ...command, result: rest }, png };
}
