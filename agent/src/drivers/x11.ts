// Linux X11 driver: xdotool for the mouse and keyboard, ImageMagick's `import` for screenshots and zooms
// (cropped and scaled in the same call).
import { setTimeout as sleep } from 'node:timers/promises';
import { pngSize } from '../png.js';
import type { Driver, MaxSize, Modifier, MouseButton, Point, Region, Screenshot, Size } from './driver.js';
import { runTool, type Tool } from './exec.js';
import { keyCombination } from './keys.js';
import { type ImagePlan, imageArgs, screenshotPlan, zoomPlan } from './scaling.js';
import { BUTTONS, clickArgs, dragArgs, MODIFIER_KEYSYMS, moveArgs, parseMouseLocation, scrollArgs, wheelSteps } from './xdotool-args.js';

export const XDOTOOL: Tool = { command: 'xdotool', packageName: 'xdotool', purpose: 'mouse and keyboard' };
export const IMPORT: Tool = { command: 'import', packageName: 'imagemagick', purpose: 'screenshots and zooms' };
export const X11_TOOLS = [XDOTOOL, IMPORT];

/** Characters a Latin keyboard has keys for (printable ASCII, newline, tab), and runs of all others. */
const PLAIN = /[\x20-\x7e\n\t]+|[^\x20-\x7e\n\t]+/g;

/**
 * How to type a text: plain runs at `fastMs` a character; other characters (é, ✓, 漢) much slower.
 * xdotool types those by binding a spare keycode, pressing it, and undoing the binding `delay / 4` later;
 * an application that reads the key after the binding is gone receives nothing. Under load a 50 ms
 * window (200 ms pace) kept every character where 1 to 10 ms lost some, yet CI on a busy 2-core machine
 * once lost a ✓ with it, and a loaded machine later lost an é at 800 ms (a 200 ms window); 2 s (a
 * 500 ms window) costs a second or two on a short text. The pace shrinks for
 * texts with many such characters (never below `fastMs`) so typing stays within about 30 s; a text
 * that switches very often is typed in one go.
 */
const SLOWEST_PACE_MS = 2000;

export function typingPlan(text: string, fastMs: number): Array<{ text: string; delayMs: number }> {
  const parts = text.match(PLAIN) ?? [];
  const special = [...text].filter((ch) => !/[\x20-\x7e\n\t]/.test(ch)).length;
  if (special === 0) return [{ text, delayMs: fastMs }];
  const slowMs = Math.max(fastMs, Math.min(SLOWEST_PACE_MS, Math.floor(30_000 / special)));
  if (parts.length > 50) return [{ text, delayMs: slowMs }];
  return parts.map((part) => ({ text: part, delayMs: /^[\x20-\x7e\n\t]/.test(part) ? fastMs : slowMs }));
}

export interface X11Options {
  env?: NodeJS.ProcessEnv;
  /** Milliseconds between typed characters; xdotool's default 12 ms makes long texts slow. */
  typeDelayMs?: number;
}

export class X11Driver implements Driver {
  readonly name = 'x11';
  private readonly env: NodeJS.ProcessEnv;
  private readonly typeDelayMs: number;

  constructor(options: X11Options = {}) {
    this.env = options.env ?? process.env;
    this.typeDelayMs = options.typeDelayMs ?? 5;
  }

  async screenshot(max: MaxSize = {}): Promise<Screenshot> {
    this.requireDisplay();
    if (max.maxWidth === undefined && max.maxHeight === undefined) {
      // The whole screen as it is: its size is the PNG's, no need to ask for it first.
      const png = await this.capture([]);
      const { width, height } = pngSize(png);
      return { png, width, height, screenWidth: width, screenHeight: height, scale: 1 };
    }
    const screen = await this.screenSize();
    const plan = screenshotPlan(screen, max);
    return this.shot(screen, plan, imageArgs(screen, plan));
  }

  async zoom({ region, maxWidth, maxHeight }: { region: Region } & MaxSize): Promise<Screenshot> {
    this.requireDisplay();
    const screen = await this.screenSize();
    const plan = zoomPlan(screen, region, { maxWidth, maxHeight });
    return this.shot(screen, plan, imageArgs(screen, plan, region));
  }

  async click({ at, button, count, modifiers }: { at?: Point | undefined; button: MouseButton; count: 1 | 2 | 3; modifiers: Modifier[] }) {
    await this.requireOnScreen(at);
    await this.withModifiers(modifiers, () => this.xdotool(clickArgs(at, button, count)));
    return { ...at, button, double: count === 2, count, ...modifierField(modifiers) };
  }

  async move({ x, y, modifiers }: { x: number; y: number; modifiers: Modifier[] }) {
    await this.requireOnScreen({ x, y });
    await this.withModifiers(modifiers, () => this.xdotool(['mousemove', String(x), String(y)]));
    return { x, y, ...modifierField(modifiers) };
  }

  async type({ text }: { text: string }) {
    this.requireDisplay();
    for (const part of typingPlan(text, this.typeDelayMs)) {
      // `--` so a text starting with "-" is typed, not read as an option.
      await this.xdotool(['type', '--delay', String(part.delayMs), '--', part.text], 30_000 + part.text.length * (part.delayMs + 5));
    }
    return { characters: [...text].length };
  }

  async key({ keys }: { keys: string[] }) {
    const combination = keyCombination(keys);
    this.requireDisplay();
    await this.xdotool(['key', '--', combination]);
    return { keys: combination };
  }

  async holdKey({ keys, durationMs }: { keys: string[]; durationMs: number }) {
    const combination = keyCombination(keys);
    this.requireDisplay();
    await this.holding(combination, () => sleep(durationMs));
    return { keys: combination, held_ms: durationMs };
  }

  async scroll({ at, deltaX, deltaY, modifiers }: { at?: Point | undefined; deltaX: number; deltaY: number; modifiers: Modifier[] }) {
    await this.requireOnScreen(at);
    const stepsX = wheelSteps(deltaX);
    const stepsY = wheelSteps(deltaY);
    const args = scrollArgs(at, stepsX, stepsY);
    if (args.length > 0) await this.withModifiers(modifiers, () => this.xdotool(args));
    return { ...at, steps_x: stepsX, steps_y: stepsY, ...modifierField(modifiers) };
  }

  async drag({ path, button, modifiers }: { path: Point[]; button: MouseButton; modifiers: Modifier[] }) {
    await this.requireOnScreen(...path);
    await this.withModifiers(modifiers, async () => {
      try {
        await this.xdotool(dragArgs(path, button), 30_000);
      } catch (error) {
        // Never leave the button down after a drag that broke off.
        await this.xdotool(['mouseup', BUTTONS[button]]).catch(() => undefined);
        throw error;
      }
    });
    return {};
  }

  async mouseDown({ at, button }: { at?: Point | undefined; button: MouseButton }) {
    await this.requireOnScreen(at);
    await this.xdotool([...moveArgs(at), 'mousedown', BUTTONS[button]]);
    return { ...at, button };
  }

  async mouseUp({ at, button }: { at?: Point | undefined; button: MouseButton }) {
    await this.requireOnScreen(at);
    await this.xdotool([...moveArgs(at), 'mouseup', BUTTONS[button]]);
    return { ...at, button };
  }

  async cursorPosition(): Promise<Point> {
    this.requireDisplay();
    const { stdout } = await this.xdotool(['getmouselocation', '--shell']);
    return parseMouseLocation(stdout.toString('utf8'));
  }

  /** The screen's size in pixels. */
  async screenSize(): Promise<{ width: number; height: number }> {
    const { stdout } = await this.xdotool(['getdisplaygeometry']);
    const [width, height] = stdout.toString('utf8').trim().split(/\s+/).map(Number);
    if (!Number.isInteger(width) || !Number.isInteger(height))
      throw new Error(`xdotool getdisplaygeometry gave "${stdout.toString('utf8').trim()}"`);
    return { width: width!, height: height! };
  }

  private requireDisplay() {
    if (!this.env.DISPLAY) throw new Error('DISPLAY is not set: the X11 driver needs an X display (for example DISPLAY=:0)');
  }

  /** xdotool clamps coordinates silently; refuse them instead so the caller learns its mistake. */
  private async requireOnScreen(...points: Array<Point | undefined>) {
    this.requireDisplay();
    const given = points.filter((p): p is Point => p !== undefined);
    if (given.length === 0) return;
    const { width, height } = await this.screenSize();
    for (const { x, y } of given) {
      if (x >= width || y >= height) throw new Error(`point (${x}, ${y}) is outside the screen (${width}x${height})`);
    }
  }

  /** `import` of the root window with ImageMagick `options` (crop, resize) applied, as PNG bytes. */
  private async capture(options: string[]): Promise<Buffer> {
    const { stdout } = await this.explainDisplay(runTool(IMPORT, ['-silent', '-window', 'root', ...options, 'png:-'], { env: this.env }));
    return stdout;
  }

  private async shot(screen: Size, plan: ImagePlan, options: string[]): Promise<Screenshot> {
    const png = await this.capture(options);
    const { width, height } = pngSize(png);
    // The screen may have changed size since it was measured: then say what the PNG really is.
    const scale = width === plan.width && height === plan.height ? plan.scale : Number((width / screen.width).toFixed(6));
    return { png, width, height, screenWidth: screen.width, screenHeight: screen.height, scale };
  }

  /** Runs `action` with the modifier keys held; they are released even when it fails. */
  private async withModifiers<T>(modifiers: Modifier[], action: () => Promise<T>): Promise<T> {
    if (modifiers.length === 0) return action();
    return this.holding(modifiers.map((m) => MODIFIER_KEYSYMS[m]).join('+'), action);
  }

  /** `xdotool keydown` of a combination, `action`, then `keyup` in any case (also after a failed keydown). */
  private async holding<T>(combination: string, action: () => Promise<T>): Promise<T> {
    let failed = false;
    try {
      await this.xdotool(['keydown', '--', combination]);
      return await action();
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      // In reverse, as a person lets go: releasing ctrl before u would let a repeat of u through alone.
      const release = this.xdotool(['keyup', '--', combination.split('+').reverse().join('+')]);
      // After a failure, report that failure, not a second one from the release.
      if (!failed) await release;
      else await release.catch(() => undefined);
    }
  }

  private async xdotool(args: string[], timeoutMs?: number) {
    const out = await this.explainDisplay(runTool(XDOTOOL, args, { env: this.env, timeoutMs }));
    // xdotool exits 0 after "No such key name"; treat the warning as the failure it is.
    if (/No such key name/i.test(out.stderr)) throw new Error(`xdotool: ${out.stderr.split('\n')[0]}`);
    return out;
  }

  /** Both tools fail with their own wording when the display cannot be reached; say it once, plainly. */
  private async explainDisplay<T>(run: Promise<T>): Promise<T> {
    try {
      return await run;
    } catch (error) {
      if (error instanceof Error && /open display|unable to open X server/i.test(error.message)) {
        throw new Error(
          `cannot open X display ${this.env.DISPLAY}: is the X server running, and may this user connect to it (XAUTHORITY)?`,
        );
      }
      throw error;
    }
  }
}

/** Results name the modifiers only when some were held, so old results keep their shape. */
function modifierField(modifiers: Modifier[]): { modifiers?: Modifier[] } {
  return modifiers.length > 0 ? { modifiers } : {};
}
