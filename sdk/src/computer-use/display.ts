// The display a model sees: the computer's screen scaled down to fit what computer-use models are
// trained on (about 1280x800), and the arithmetic between its pixels and the screen's.
import { ComputerUseError } from './errors.js';

export interface ScreenSize {
  width: number;
  height: number;
}

/** What the model is told its display is (`display_width_px` ...), and the real screen behind it. */
export interface ModelDisplay {
  /** The model's display, in the pixels of the screenshots it is sent. */
  width: number;
  height: number;
  /** The computer's screen (`Computer.screen`), in the pixels commands use. */
  screen: ScreenSize;
}

export interface DisplayLimits {
  /** Default 1280. */
  maxWidth?: number | undefined;
  /** Default 800. */
  maxHeight?: number | undefined;
}

/** A screen (`Computer.screen`) or a display made by `modelDisplay`. */
export type ScreenOrDisplay = ModelDisplay | ScreenSize | null | undefined;

export const DEFAULT_DISPLAY_LIMITS = { maxWidth: 1280, maxHeight: 800 } as const;

/**
 * The display to give the model for this screen: the screen scaled to fit `limits` (default
 * 1280x800), keeping its aspect ratio, never scaled up.
 */
export function modelDisplay(screen: ScreenSize | null | undefined, limits: DisplayLimits = {}): ModelDisplay {
  if (!screen) throw new ComputerUseError('screen', 'the computer has not reported its screen yet (Computer.screen is null)');
  for (const side of ['width', 'height'] as const) {
    if (!Number.isInteger(screen[side]) || screen[side] < 1) throw new ComputerUseError(`screen.${side}`, 'must be a positive integer');
  }
  const maxWidth = limits.maxWidth ?? DEFAULT_DISPLAY_LIMITS.maxWidth;
  const maxHeight = limits.maxHeight ?? DEFAULT_DISPLAY_LIMITS.maxHeight;
  const factor = Math.min(1, maxWidth / screen.width, maxHeight / screen.height);
  return {
    width: Math.max(1, Math.round(screen.width * factor)),
    height: Math.max(1, Math.round(screen.height * factor)),
    screen: { width: screen.width, height: screen.height },
  };
}

/** A display as given: made by `modelDisplay`, or the default one for a screen. */
export function asDisplay(target: ScreenOrDisplay): ModelDisplay {
  if (target && 'screen' in target) return target;
  return modelDisplay(target);
}

/** True when screenshots must be scaled down for the model. */
export function isScaled(display: ModelDisplay): boolean {
  return display.width !== display.screen.width || display.height !== display.screen.height;
}

/** A number the model gave, or a clear error naming where it was. */
export function modelNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new ComputerUseError(field, `must be a number, got ${JSON.stringify(value)}`);
  return value;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** A model's point -> the screen's pixel: scaled up, rounded, kept on the screen. */
export function toScreenPoint(display: ModelDisplay, x: number, y: number): { x: number; y: number } {
  return {
    x: clamp(Math.round((x * display.screen.width) / display.width), 0, display.screen.width - 1),
    y: clamp(Math.round((y * display.screen.height) / display.height), 0, display.screen.height - 1),
  };
}

/** A screen pixel -> the model's point (for `cursor_position`). */
export function toModelPoint(display: ModelDisplay, x: number, y: number): { x: number; y: number } {
  return {
    x: clamp(Math.round((x * display.width) / display.screen.width), 0, display.width - 1),
    y: clamp(Math.round((y * display.height) / display.screen.height), 0, display.height - 1),
  };
}

/** A distance in the model's pixels (a scroll) -> screen pixels. */
export function toScreenDistance(display: ModelDisplay, dx: number, dy: number): { dx: number; dy: number } {
  const limit = 100_000;
  return {
    dx: clamp(Math.round((dx * display.screen.width) / display.width), -limit, limit),
    dy: clamp(Math.round((dy * display.screen.height) / display.height), -limit, limit),
  };
}

/** `max_width` / `max_height` for a screenshot the model sees at its display size (none when unscaled). */
export function screenshotSize(display: ModelDisplay): { max_width?: number; max_height?: number } {
  if (!isScaled(display)) return {};
  return { max_width: Math.max(16, display.width), max_height: Math.max(16, display.height) };
}

/** The screenshot command for the model: the screen, scaled to the display's size. */
export function screenshotCommand(target: ScreenOrDisplay): { type: 'screenshot'; payload: { max_width?: number; max_height?: number } } {
  return { type: 'screenshot', payload: screenshotSize(asDisplay(target)) };
}
