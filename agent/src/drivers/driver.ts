// What the agent needs from a platform: one method per command type. Coordinates are screen pixels from
// the top-left corner. Each method resolves with extra result fields (merged into `{ok, duration_ms}`)
// and throws an Error whose message is reported to the user as the command's error.

export type MouseButton = 'left' | 'right' | 'middle';

export interface Screenshot {
  png: Buffer;
  width: number;
  height: number;
}

export interface Driver {
  /** Short name for logs and `doctor`, e.g. `x11`. */
  readonly name: string;
  screenshot(): Promise<Screenshot>;
  click(input: { x: number; y: number; button: MouseButton; double: boolean }): Promise<Record<string, unknown>>;
  move(input: { x: number; y: number }): Promise<Record<string, unknown>>;
  type(input: { text: string }): Promise<Record<string, unknown>>;
  key(input: { keys: string[] }): Promise<Record<string, unknown>>;
  /** Pixels; positive is right / down. */
  scroll(input: { deltaX: number; deltaY: number }): Promise<Record<string, unknown>>;
  drag(input: { fromX: number; fromY: number; toX: number; toY: number }): Promise<Record<string, unknown>>;
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
