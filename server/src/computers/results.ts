import { type CommandResult, ERROR_MESSAGES, type ScreenshotRef } from '@mindservice/contract';
import { ApiError } from '../http/api-error.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** Types whose every done result is an image (a wait's is one only when it asked for a screenshot). */
const CARRIES_PNG = new Set(['screenshot', 'zoom']);

/** The route that answers a command's PNG; results, lists, events and webhooks point to it. */
export const screenshotUrl = (computerId: string, commandId: string) => `/computers/${computerId}/commands/${commandId}/screenshot`;

export const screenshotRef = (computerId: string, commandId: string, bytes: number): ScreenshotRef => ({
  bytes,
  url: screenshotUrl(computerId, commandId),
});

/** A result as stored: the JSON without the screenshot, and the PNG kept apart. */
export interface StoredResult {
  result: Record<string, unknown> | null;
  png?: Buffer;
}

/**
 * Splits what the agent posted: `screenshot_b64` (any command's) becomes the PNG kept apart, the rest is
 * stored as JSON, at most `maxBytes` of it (413 beyond). `screenshot` is the service's name (where the
 * PNG is), so the agent's own is dropped. A done screenshot or zoom must carry its PNG.
 */
export function splitResult(
  type: string,
  status: 'done' | 'failed',
  result: Record<string, unknown> | undefined,
  maxBytes: number,
): StoredResult {
  if (result === undefined) {
    if (CARRIES_PNG.has(type) && status === 'done') throw missingScreenshot();
    return { result: null };
  }
  const { screenshot_b64: b64, screenshot: _ours, ...rest } = result;
  let png: Buffer | undefined;
  if (b64 !== undefined) {
    if (typeof b64 !== 'string' || b64.length === 0) throw missingScreenshot();
    if (!BASE64.test(b64)) throw ApiError.invalidField('body.result.screenshot_b64', 'is not valid base64');
    png = Buffer.from(b64, 'base64');
  } else if (CARRIES_PNG.has(type) && status === 'done') {
    throw missingScreenshot();
  }
  const size = Buffer.byteLength(JSON.stringify(rest));
  if (size > maxBytes) {
    throw ApiError.of(413, 'result_too_large', ERROR_MESSAGES.resultTooLarge(size, maxBytes), {
      details: [{ path: 'body.result', message: ERROR_MESSAGES.resultTooLargeDetail(maxBytes) }],
    });
  }
  return { result: rest, png };
}

const missingScreenshot = () =>
  ApiError.invalidField('body.result.screenshot_b64', 'is required for a screenshot or zoom: the PNG as a base64 string');

/** A stored result as clients see it: the screenshot as `{bytes, url}`, plus its base64 when asked (one command). */
export function presentResult(
  computerId: string,
  commandId: string,
  stored: Record<string, unknown> | null,
  screenshotBytes: number | null,
  png?: Buffer,
): CommandResult | null {
  if (screenshotBytes === null) return stored;
  return {
    ...(stored ?? {}),
    screenshot: screenshotRef(computerId, commandId, screenshotBytes),
    ...(png ? { screenshot_b64: png.toString('base64') } : {}),
  };
}
