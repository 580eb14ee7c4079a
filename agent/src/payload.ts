// Reads a command's payload field by field, refusing what the contract does not allow with the field's
// name: the server validates payloads when they are queued, the agent checks again so that a newer server
// (or a bug) can never make it run a command with missing or odd values.
import type { MaxSize, Modifier, MouseButton, Point } from './drivers/driver.js';

type Payload = Record<string, unknown>;

export function coordinate(p: Payload, field: string): number {
  const value = p[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new Error(`payload.${field}: must be a whole number of pixels, 0 or more`);
  return value;
}

export function positive(p: Payload, field: string): number {
  const value = p[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new Error(`payload.${field}: must be a whole number, 1 or more`);
  return value;
}

/** `x` and `y` together, or neither (then the action happens where the pointer is). */
export function optionalPoint(p: Payload): Point | undefined {
  if (p.x === undefined && p.y === undefined) return undefined;
  if (p.x === undefined || p.y === undefined)
    throw new Error(`payload.${p.x === undefined ? 'x' : 'y'}: is required with ${p.x === undefined ? 'y' : 'x'}`);
  return { x: coordinate(p, 'x'), y: coordinate(p, 'y') };
}

export function delta(p: Payload, field: string): number {
  const value = p[field] ?? 0;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new Error(`payload.${field}: must be a whole number of pixels`);
  return value;
}

const BUTTONS: readonly MouseButton[] = ['left', 'right', 'middle', 'back', 'forward'];

export function button(p: Payload): MouseButton {
  const value = p.button ?? 'left';
  if (!BUTTONS.includes(value as MouseButton)) throw new Error(`payload.button: must be one of ${BUTTONS.join(', ')}`);
  return value as MouseButton;
}

const MODIFIERS: readonly Modifier[] = ['shift', 'ctrl', 'alt', 'super'];

export function modifiers(p: Payload): Modifier[] {
  const value = p.modifiers ?? [];
  if (
    !Array.isArray(value) ||
    !value.every((m) => MODIFIERS.includes(m as Modifier)) ||
    new Set(value).size !== value.length ||
    (p.modifiers !== undefined && value.length === 0)
  ) {
    throw new Error(`payload.modifiers: must be a list of different names of: ${MODIFIERS.join(', ')}`);
  }
  return value as Modifier[];
}

/** `count` 1..3, or the older `double`; both given must agree. */
export function clickCount(p: Payload): 1 | 2 | 3 {
  const double = flag(p, 'double');
  if (p.count === undefined) return double ? 2 : 1;
  if (p.count !== 1 && p.count !== 2 && p.count !== 3) throw new Error('payload.count: must be 1, 2 or 3');
  if (p.double !== undefined && (double ? 2 : 1) !== p.count) throw new Error(`payload.count: is ${p.count} but double is ${double}`);
  return p.count;
}

export function keyNames(p: Payload): string[] {
  if (!Array.isArray(p.keys) || p.keys.length === 0 || !p.keys.every((k) => typeof k === 'string')) {
    throw new Error('payload.keys: must be a non-empty array of key names');
  }
  return p.keys as string[];
}

export function milliseconds(p: Payload, min: number): number {
  const value = p.duration_ms;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 10_000)
    throw new Error(`payload.duration_ms: must be a whole number of milliseconds from ${min} to 10000`);
  return value;
}

export function maxSize(p: Payload): MaxSize {
  const side = (field: string) => {
    const value = p[field];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 16)
      throw new Error(`payload.${field}: must be a whole number, 16 or more`);
    return value;
  };
  return { maxWidth: side('max_width'), maxHeight: side('max_height') };
}

/** Either `path` (2..100 points) or `fromX`, `fromY`, `toX`, `toY`. */
export function dragPath(p: Payload): Point[] {
  if (p.path === undefined) {
    return fromToPath({ x: coordinate(p, 'fromX'), y: coordinate(p, 'fromY') }, { x: coordinate(p, 'toX'), y: coordinate(p, 'toY') });
  }
  if (['fromX', 'fromY', 'toX', 'toY'].some((name) => p[name] !== undefined))
    throw new Error('payload.path: cannot be given with fromX, fromY, toX, toY (give one form)');
  if (!Array.isArray(p.path) || p.path.length < 2 || p.path.length > 100)
    throw new Error('payload.path: must be a list of 2 to 100 points {x, y}');
  return p.path.map((point: unknown, i: number) => {
    if (typeof point !== 'object' || point === null) throw new Error(`payload.path[${i}]: must be a point {x, y}`);
    const q = point as Record<string, unknown>;
    try {
      return { x: coordinate(q, 'x'), y: coordinate(q, 'y') };
    } catch {
      throw new Error(`payload.path[${i}]: x and y must be whole numbers of pixels, 0 or more`);
    }
  });
}

/** The from/to form of a drag as a path through the midpoint, as the agent always moved. */
export function fromToPath(from: Point, to: Point): Point[] {
  return [from, { x: Math.round((from.x + to.x) / 2), y: Math.round((from.y + to.y) / 2) }, to];
}

export function flag(p: Payload, field: string): boolean {
  const value = p[field] ?? false;
  if (typeof value !== 'boolean') throw new Error(`payload.${field}: must be true or false`);
  return value;
}
