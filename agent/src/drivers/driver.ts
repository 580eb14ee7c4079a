// What the agent needs from a platform: one method per command type (`wait` is the agent's own). Coordinates
// are screen pixels from the top-left corner. Each method resolves with extra result fields (merged into
// `{ok, duration_ms}`) and throws an Error whose message is reported to the user as the command's error.

export type MouseButton = 'left' | 'right' | 'middle' | 'back' | 'forward';
/** Keys held down during a click, move, scroll or drag. */
export type Modifier = 'shift' | 'ctrl' | 'alt' | 'super';

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

export interface Region extends Point, Size {}

/** Largest PNG wanted, in pixels; absent sides do not limit. */
export interface MaxSize {
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
}

export interface Screenshot {
  png: Buffer;
  /** The PNG's size. */
  width: number;
  height: number;
  /** The screen's size when it was taken. */
  screenWidth: number;
  screenHeight: number;
  /** PNG pixels per screen pixel. */
  scale: number;
}

export interface Driver {
  /** Short name for logs and `doctor`, e.g. `x11`. */
  readonly name: string;
  screenSize(): Promise<Size>;
  /** The whole screen, scaled down (never up) to fit `max`. */
  screenshot(max?: MaxSize): Promise<Screenshot>;
  /** A region of the screen, scaled up or down to fit `max` when given. */
  zoom(input: { region: Region } & MaxSize): Promise<Screenshot>;
  /** Without `at`, where the pointer is. */
  click(input: { at?: Point | undefined; button: MouseButton; count: 1 | 2 | 3; modifiers: Modifier[] }): Promise<Record<string, unknown>>;
  move(input: { x: number; y: number; modifiers: Modifier[] }): Promise<Record<string, unknown>>;
  type(input: { text: string }): Promise<Record<string, unknown>>;
  key(input: { keys: string[] }): Promise<Record<string, unknown>>;
  /** The keys go down, stay down `durationMs`, and come up (always, even after a failure). */
  holdKey(input: { keys: string[]; durationMs: number }): Promise<Record<string, unknown>>;
  /** Pixels; positive is right / down. Without `at`, where the pointer is. */
  scroll(input: { at?: Point | undefined; deltaX: number; deltaY: number; modifiers: Modifier[] }): Promise<Record<string, unknown>>;
  /** The button is held from the path's first point to its last. */
  drag(input: { path: Point[]; button: MouseButton; modifiers: Modifier[] }): Promise<Record<string, unknown>>;
  mouseDown(input: { at?: Point | undefined; button: MouseButton }): Promise<Record<string, unknown>>;
  mouseUp(input: { at?: Point | undefined; button: MouseButton }): Promise<Record<string, unknown>>;
  cursorPosition(): Promise<Point>;
}

/** A required program is not installed; the message names the package that provides it. */
export class MissingToolError extends Error {
  constructor(
    readonly tool: string,
    readonly packageName: string,
  ) {
    super(`${tool} is not installed: install it with \`sudo apt-get install ${packageName}\``);
    this.name = 'MissingToolError';
  }
}
