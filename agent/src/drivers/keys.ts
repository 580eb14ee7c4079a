// Key names as users write them (`ctrl+c`, `shift+Tab`, `Return`, `Super`) -> X11 keysyms for xdotool.
// Unknown names are refused here: xdotool itself only warns and exits 0, so a typo would pass silently.

/** Lower-cased name -> keysym. */
const NAMED_KEYS: Record<string, string> = {
  // modifiers
  ctrl: 'Control_L',
  control: 'Control_L',
  ctl: 'Control_L',
  control_l: 'Control_L',
  control_r: 'Control_R',
  shift: 'Shift_L',
  shift_l: 'Shift_L',
  shift_r: 'Shift_R',
  alt: 'Alt_L',
  option: 'Alt_L',
  opt: 'Alt_L',
  alt_l: 'Alt_L',
  alt_r: 'Alt_R',
  altgr: 'ISO_Level3_Shift',
  super: 'Super_L',
  win: 'Super_L',
  windows: 'Super_L',
  cmd: 'Super_L',
  command: 'Super_L',
  meta: 'Super_L',
  super_l: 'Super_L',
  super_r: 'Super_R',
  meta_l: 'Meta_L',
  meta_r: 'Meta_R',
  // editing and whitespace
  enter: 'Return',
  return: 'Return',
  ret: 'Return',
  kp_enter: 'KP_Enter',
  tab: 'Tab',
  space: 'space',
  spacebar: 'space',
  backspace: 'BackSpace',
  bksp: 'BackSpace',
  delete: 'Delete',
  del: 'Delete',
  insert: 'Insert',
  ins: 'Insert',
  escape: 'Escape',
  esc: 'Escape',
  // navigation
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
  pageup: 'Prior',
  page_up: 'Prior',
  pgup: 'Prior',
  prior: 'Prior',
  pagedown: 'Next',
  page_down: 'Next',
  pgdn: 'Next',
  next: 'Next',
  // locks and system
  capslock: 'Caps_Lock',
  caps_lock: 'Caps_Lock',
  numlock: 'Num_Lock',
  num_lock: 'Num_Lock',
  scrolllock: 'Scroll_Lock',
  scroll_lock: 'Scroll_Lock',
  printscreen: 'Print',
  print: 'Print',
  prtsc: 'Print',
  pause: 'Pause',
  break: 'Break',
  menu: 'Menu',
  contextmenu: 'Menu',
  // media
  volumeup: 'XF86AudioRaiseVolume',
  volumedown: 'XF86AudioLowerVolume',
  mute: 'XF86AudioMute',
  playpause: 'XF86AudioPlay',
  nexttrack: 'XF86AudioNext',
  prevtrack: 'XF86AudioPrev',
  // punctuation written as words
  plus: 'plus',
  minus: 'minus',
  equal: 'equal',
  comma: 'comma',
  period: 'period',
  slash: 'slash',
  backslash: 'backslash',
  semicolon: 'semicolon',
  apostrophe: 'apostrophe',
  grave: 'grave',
  bracketleft: 'bracketleft',
  bracketright: 'bracketright',
};

/** Single printable characters that are not their own keysym name. */
const CHARACTER_KEYS: Record<string, string> = {
  ' ': 'space',
  '+': 'plus',
  '-': 'minus',
  '=': 'equal',
  ',': 'comma',
  '.': 'period',
  '/': 'slash',
  '\\': 'backslash',
  ';': 'semicolon',
  "'": 'apostrophe',
  '`': 'grave',
  '[': 'bracketleft',
  ']': 'bracketright',
  '!': 'exclam',
  '@': 'at',
  '#': 'numbersign',
  $: 'dollar',
  '%': 'percent',
  '^': 'asciicircum',
  '&': 'ampersand',
  '*': 'asterisk',
  '(': 'parenleft',
  ')': 'parenright',
  _: 'underscore',
  '{': 'braceleft',
  '}': 'braceright',
  '|': 'bar',
  ':': 'colon',
  '"': 'quotedbl',
  '<': 'less',
  '>': 'greater',
  '?': 'question',
  '~': 'asciitilde',
};

export class UnknownKeyError extends Error {
  constructor(name: string) {
    super(`unknown key "${name}": use names like ctrl, shift, alt, super, Return, Tab, Escape, BackSpace, Up, F5, a, 1`);
    this.name = 'UnknownKeyError';
  }
}

/** One key name -> its keysym. */
export function keysym(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw new UnknownKeyError(name);
  const chars = [...trimmed];
  if (chars.length === 1) {
    const ch = chars[0]!;
    if (/^[a-z0-9]$/i.test(ch)) return ch.toLowerCase(); // a key, not a character: `ctrl+C` is ctrl+c
    if (CHARACTER_KEYS[ch]) return CHARACTER_KEYS[ch]!;
    // Any other character (ä, é, ß...): X11's Unicode keysym.
    return `U${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  const lower = trimmed.toLowerCase();
  if (NAMED_KEYS[lower]) return NAMED_KEYS[lower]!;
  const fn = /^f([1-9]|1\d|2[0-4])$/.exec(lower);
  if (fn) return `F${fn[1]}`;
  // Keysyms written the X11 way (KP_5, XF86AudioMute) are passed through.
  if (/^(KP_\w+|XF86\w+)$/.test(trimmed)) return trimmed;
  throw new UnknownKeyError(name);
}

/**
 * A combination -> xdotool's `a+b+c` form. Accepts `["ctrl", "c"]` and `["ctrl+c"]` alike; a lone `+`
 * (or one at the end, as in `ctrl++`) is the plus key.
 */
export function keyCombination(keys: string[]): string {
  const names = keys.flatMap(splitCombination);
  if (names.length === 0) throw new UnknownKeyError(keys.join('+'));
  return names.map(keysym).join('+');
}

function splitCombination(written: string): string[] {
  const text = written.trim();
  if (text === '+') return ['+'];
  const parts = text.split('+');
  // "ctrl++" splits into ["ctrl", "", ""]: the trailing empty pair is the plus key.
  if (text.endsWith('++')) return [...parts.slice(0, -2), '+'];
  return parts;
}
