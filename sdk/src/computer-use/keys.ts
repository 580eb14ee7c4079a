// Key names as computer-use models write them -> the names our `key` and `hold_key` commands take.
// Anthropic writes xdotool keysyms (`ctrl+s`, `Return`, `Page_Down`, `KP_0`); OpenAI writes upper-case
// names (`CTRL`, `ENTER`, `ARROWLEFT`, `CMD`). Ours: `ctrl`, `shift`, `alt`, `super` for the modifiers,
// X keysym names for the rest (`Return`, `Page_Down`), single characters as themselves.
import type { ModifierKey } from '../contract.js';
import { ComputerUseError } from './errors.js';

/** Lower-cased model name -> our modifier. `cmd`, `meta` and `win` are the Super (Windows/Command) key. */
const MODIFIERS: Record<string, ModifierKey> = {
  shift: 'shift',
  shift_l: 'shift',
  shift_r: 'shift',
  ctrl: 'ctrl',
  control: 'ctrl',
  control_l: 'ctrl',
  control_r: 'ctrl',
  ctl: 'ctrl',
  alt: 'alt',
  alt_l: 'alt',
  alt_r: 'alt',
  option: 'alt',
  opt: 'alt',
  super: 'super',
  super_l: 'super',
  super_r: 'super',
  meta: 'super',
  meta_l: 'super',
  meta_r: 'super',
  cmd: 'super',
  command: 'super',
  win: 'super',
  windows: 'super',
};

/** Lower-cased model name -> our key name, for keys that are not modifiers. */
const NAMED_KEYS: Record<string, string> = {
  return: 'Return',
  enter: 'Return',
  kp_enter: 'KP_Enter',
  tab: 'Tab',
  space: 'space',
  backspace: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  escape: 'Escape',
  esc: 'Escape',
  up: 'Up',
  down: 'Down',
  left: 'Left',
  right: 'Right',
  arrowup: 'Up',
  arrowdown: 'Down',
  arrowleft: 'Left',
  arrowright: 'Right',
  home: 'Home',
  end: 'End',
  pageup: 'Page_Up',
  page_up: 'Page_Up',
  prior: 'Page_Up',
  pagedown: 'Page_Down',
  page_down: 'Page_Down',
  next: 'Page_Down',
  capslock: 'Caps_Lock',
  caps_lock: 'Caps_Lock',
  numlock: 'Num_Lock',
  num_lock: 'Num_Lock',
  scrolllock: 'Scroll_Lock',
  scroll_lock: 'Scroll_Lock',
  print: 'Print',
  printscreen: 'Print',
  pause: 'Pause',
  menu: 'Menu',
  // X keysyms of printable characters: our commands take the character itself.
  plus: '+',
  minus: '-',
  equal: '=',
  comma: ',',
  period: '.',
  slash: '/',
  backslash: '\\',
  semicolon: ';',
  apostrophe: "'",
  grave: '`',
  bracketleft: '[',
  bracketright: ']',
  exclam: '!',
  at: '@',
  numbersign: '#',
  dollar: '$',
  percent: '%',
  asciicircum: '^',
  ampersand: '&',
  asterisk: '*',
  parenleft: '(',
  parenright: ')',
  underscore: '_',
  braceleft: '{',
  braceright: '}',
  bar: '|',
  colon: ':',
  quotedbl: '"',
  less: '<',
  greater: '>',
  question: '?',
  asciitilde: '~',
};

/** Every name this module answers for a key that is not a modifier (for the tests). */
export const MAPPED_KEY_NAMES: readonly string[] = [...new Set(Object.values(NAMED_KEYS))];

/** One key as the model named it -> our name; `field` says where it was, for the error. */
export function mapKey(written: string, field: string): string {
  const name = written.trim();
  if (written === ' ') return 'space';
  if (name.length === 0) throw new ComputerUseError(field, 'is an empty key name');
  const chars = [...name];
  if (chars.length === 1) return /^[A-Z]$/.test(name) ? name.toLowerCase() : name; // a key, not a character: CTRL+A is ctrl+a
  const lower = name.toLowerCase();
  const modifier = MODIFIERS[lower];
  if (modifier) return modifier;
  const named = NAMED_KEYS[lower];
  if (named) return named;
  const fn = /^f([1-9]|1\d|2[0-4])$/.exec(lower);
  if (fn) return `F${fn[1]}`;
  if (/^kp_\w+$/i.test(name)) return `KP_${name.slice(3)}`;
  if (/^xf86\w+$/i.test(name)) return `XF86${name.slice(4)}`;
  throw new ComputerUseError(
    field,
    `unknown key "${written}": use names like ctrl, shift, alt, super, Return, Tab, Escape, Page_Down, F5, a`,
  );
}

/**
 * A combination -> its keys. `ctrl+s` and `["CTRL", "S"]` alike; a lone `+` (or one at the end, as in
 * `ctrl++`) is the plus key. A space-separated sequence of combinations (xdotool's `key a b`) is refused:
 * one command presses one combination.
 */
export function splitCombination(written: string, field: string): string[] {
  const text = written.trim();
  if (text === '+') return ['+'];
  if (text === '') return written === ' ' ? [' '] : [''];
  if (/\s/.test(text))
    throw new ComputerUseError(field, `"${written}" is a sequence of keys; one command presses one combination such as "ctrl+s"`);
  if (text.endsWith('++')) return [...text.slice(0, -2).split('+'), '+'];
  return text.split('+');
}

/** The keys of combinations written as one string (Anthropic) or a list (OpenAI) -> our key names. */
export function mapKeys(written: string | readonly string[], field: string): string[] {
  const list = typeof written === 'string' ? [written] : written;
  const keys = list.flatMap((item, i) => {
    const where = typeof written === 'string' ? field : `${field}[${i}]`;
    if (typeof item !== 'string') throw new ComputerUseError(where, `must be a key name, got ${JSON.stringify(item)}`);
    return splitCombination(item, where).map((key) => mapKey(key, where));
  });
  if (keys.length === 0) throw new ComputerUseError(field, 'names no key');
  if (keys.length > 10) throw new ComputerUseError(field, `names ${keys.length} keys; a combination has at most 10`);
  return keys;
}

/** Keys held during a click, scroll, move or drag -> our modifiers; any other key is refused. */
export function mapModifiers(written: string | readonly string[] | null | undefined, field: string): ModifierKey[] | undefined {
  if (written === undefined || written === null) return undefined;
  if (typeof written === 'string' && written.trim() === '') return undefined;
  if (typeof written !== 'string' && written.length === 0) return undefined;
  const keys = mapKeys(written, field);
  const modifiers = new Set<ModifierKey>();
  for (const key of keys) {
    if (!MODIFIER_NAMES.has(key)) {
      throw new ComputerUseError(field, `"${key}" is not a key that can be held during the action (shift, ctrl, alt, super)`);
    }
    modifiers.add(key as ModifierKey);
  }
  return [...modifiers];
}

const MODIFIER_NAMES = new Set<string>(Object.values(MODIFIERS));
