// xdotool's side of the X11 driver, pure so it is unit tested: button and modifier names, wheel steps,
// the argument lists of clicks, scrolls and drags, and the pointer location it prints.
import type { Modifier, MouseButton, Point } from './driver.js';

/** X11 button numbers; 8 and 9 are the side buttons (back, forward). */
export const BUTTONS: Record<MouseButton, string> = { left: '1', middle: '2', right: '3', back: '8', forward: '9' };
export const MODIFIER_KEYSYMS: Record<Modifier, string> = { shift: 'Shift_L', ctrl: 'Control_L', alt: 'Alt_L', super: 'Super_L' };
/** Between the clicks of a double or triple click: well inside toolkits' multi-click time (xterm 250 ms, GTK 400 ms). */
const MULTI_CLICK_DELAY_MS = '80';
/** X11 wheel buttons: 4 up, 5 down, 6 left, 7 right. */
const WHEEL = { up: '4', down: '5', left: '6', right: '7' };
/** One wheel step scrolls about this many pixels in most toolkits (3 lines). */
export const PIXELS_PER_WHEEL_STEP = 100;

/** Pixels -> wheel steps: rounded, at least one step when the delta is not zero, sign kept. */
export function wheelSteps(pixels: number): number {
  if (pixels === 0) return 0;
  return Math.sign(pixels) * Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_WHEEL_STEP));
}

/** xdotool arguments for a click: move first when a point is given; 2 or 3 clicks 80 ms apart. */
export function clickArgs(at: Point | undefined, button: MouseButton, count: number): string[] {
  const repeat = count > 1 ? ['--repeat', String(count), '--delay', MULTI_CLICK_DELAY_MS] : [];
  return [...moveArgs(at), 'click', ...repeat, BUTTONS[button]];
}

/** xdotool arguments for wheel steps (buttons 4/5 vertical, 6/7 horizontal), after a move when a point is given. */
export function scrollArgs(at: Point | undefined, stepsX: number, stepsY: number): string[] {
  const args = moveArgs(at);
  if (stepsY !== 0) args.push('click', '--repeat', String(Math.abs(stepsY)), '--delay', '20', stepsY > 0 ? WHEEL.down : WHEEL.up);
  if (stepsX !== 0) args.push('click', '--repeat', String(Math.abs(stepsX)), '--delay', '20', stepsX > 0 ? WHEEL.right : WHEEL.left);
  return args;
}

/**
 * xdotool arguments for a drag along `path`: press at the first point, move through the others with
 * short pauses (toolkits start a drag only after motion with the button held, and may drop motion
 * events that come too fast), release at the last. About 2 s at most for 100 points.
 */
export function dragArgs(path: Point[], button: MouseButton): string[] {
  const [first, ...rest] = path;
  if (!first || rest.length === 0) throw new Error('a drag needs at least two points');
  const pause = Math.min(0.05, 2 / rest.length).toFixed(3);
  const args = ['mousemove', String(first.x), String(first.y), 'mousedown', BUTTONS[button]];
  for (const point of rest) args.push('sleep', pause, 'mousemove', String(point.x), String(point.y));
  args.push('sleep', pause, 'mouseup', BUTTONS[button]);
  return args;
}

export function moveArgs(at: Point | undefined): string[] {
  return at ? ['mousemove', String(at.x), String(at.y)] : [];
}

/** `xdotool getmouselocation --shell` prints `X=..`, `Y=..`, `SCREEN=..`, `WINDOW=..` lines. */
export function parseMouseLocation(text: string): Point {
  const x = /^X=(\d+)$/m.exec(text)?.[1];
  const y = /^Y=(\d+)$/m.exec(text)?.[1];
  if (x === undefined || y === undefined) throw new Error(`xdotool getmouselocation gave "${text.trim()}"`);
  return { x: Number(x), y: Number(y) };
}
