// Linux X11 driver: xdotool for the mouse and keyboard, ImageMagick's `import` for screenshots.
import { pngSize } from '../png.js';
import type { Driver, MouseButton, Screenshot } from './driver.js';
import { runTool, type Tool } from './exec.js';
import { keyCombination } from './keys.js';

export const XDOTOOL: Tool = { command: 'xdotool', packageName: 'xdotool', purpose: 'mouse and keyboard' };
export const IMPORT: Tool = { command: 'import', packageName: 'imagemagick', purpose: 'screenshots' };
export const X11_TOOLS = [XDOTOOL, IMPORT];

const BUTTONS: Record<MouseButton, string> = { left: '1', middle: '2', right: '3' };
/** X11 wheel buttons: 4 up, 5 down, 6 left, 7 right. */
const WHEEL = { up: '4', down: '5', left: '6', right: '7' };
/** One wheel step scrolls about this many pixels in most toolkits (3 lines). */
export const PIXELS_PER_WHEEL_STEP = 100;

/** Pixels -> wheel steps: rounded, at least one step when the delta is not zero, sign kept. */
export function wheelSteps(pixels: number): number {
  if (pixels === 0) return 0;
  return Math.sign(pixels) * Math.max(1, Math.round(Math.abs(pixels) / PIXELS_PER_WHEEL_STEP));
}

/** Characters a Latin keyboard has keys for (printable ASCII, newline, tab), and runs of all others. */
const PLAIN = /[\x20-\x7e\n\t]+|[^\x20-\x7e\n\t]+/g;

/**
 * How to type a text: plain runs at `fastMs` a character; other characters (é, ✓, 漢) much slower.
 * xdotool types those by binding a spare keycode, pressing it, and undoing the binding `delay / 4` later;
 * an application that reads the key after the binding is gone receives nothing. Under load a 50 ms
 * window (200 ms pace) kept every character where 1 to 10 ms lost some. The pace shrinks for texts with
 * many such characters (never below `fastMs`) so typing stays within about 30 s; a text that switches
 * very often is typed in one go.
 */
export function typingPlan(text: string, fastMs: number): Array<{ text: string; delayMs: number }> {
  const parts = text.match(PLAIN) ?? [];
  const special = [...text].filter((ch) => !/[\x20-\x7e\n\t]/.test(ch)).length;
  if (special === 0) return [{ text, delayMs: fastMs }];
  const slowMs = Math.max(fastMs, Math.min(200, Math.floor(30_000 / special)));
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

  async screenshot(): Promise<Screenshot> {
    this.requireDisplay();
    const { stdout } = await this.explainDisplay(runTool(IMPORT, ['-silent', '-window', 'root', 'png:-'], { env: this.env }));
    const { width, height } = pngSize(stdout);
    return { png: stdout, width, height };
  }

  async click({ x, y, button, double }: { x: number; y: number; button: MouseButton; double: boolean }) {
    await this.requireOnScreen([x, y]);
    const repeat = double ? ['--repeat', '2', '--delay', '80'] : [];
    await this.xdotool(['mousemove', String(x), String(y), 'click', ...repeat, BUTTONS[button]]);
    return { x, y, button, double };
  }

  async move({ x, y }: { x: number; y: number }) {
    await this.requireOnScreen([x, y]);
    await this.xdotool(['mousemove', String(x), String(y)]);
    return { x, y };
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

  async scroll({ deltaX, deltaY }: { deltaX: number; deltaY: number }) {
    this.requireDisplay();
    const stepsX = wheelSteps(deltaX);
    const stepsY = wheelSteps(deltaY);
    const args: string[] = [];
    if (stepsY !== 0) args.push('click', '--repeat', String(Math.abs(stepsY)), '--delay', '20', stepsY > 0 ? WHEEL.down : WHEEL.up);
    if (stepsX !== 0) args.push('click', '--repeat', String(Math.abs(stepsX)), '--delay', '20', stepsX > 0 ? WHEEL.right : WHEEL.left);
    if (args.length > 0) await this.xdotool(args);
    return { steps_x: stepsX, steps_y: stepsY };
  }

  async drag({ fromX, fromY, toX, toY }: { fromX: number; fromY: number; toX: number; toY: number }) {
    await this.requireOnScreen([fromX, fromY], [toX, toY]);
    const midX = String(Math.round((fromX + toX) / 2));
    const midY = String(Math.round((fromY + toY) / 2));
    // Toolkits start a drag only after motion with the button held: move in two steps with short pauses.
    await this.xdotool([
      'mousemove',
      String(fromX),
      String(fromY),
      'mousedown',
      BUTTONS.left,
      'sleep',
      '0.05',
      'mousemove',
      midX,
      midY,
      'sleep',
      '0.05',
      'mousemove',
      String(toX),
      String(toY),
      'sleep',
      '0.05',
      'mouseup',
      BUTTONS.left,
    ]);
    return {};
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
  private async requireOnScreen(...points: Array<[number, number]>) {
    this.requireDisplay();
    const { width, height } = await this.screenSize();
    for (const [x, y] of points) {
      if (x >= width || y >= height) throw new Error(`point (${x}, ${y}) is outside the screen (${width}x${height})`);
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
