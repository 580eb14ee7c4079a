// Command sequences for Claude's memory tool, run against the Anthropic SDK's local-disk reference and
// against a mind, answer by answer: a scripted one covering every command and error, and a seeded
// random one. The reference keeps a folder that lost its last file; a mind has no folders, only keys,
// so after each command the reference's empty folders are removed (the one difference, by design).
import { readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import type { BetaMemoryTool20250818Command as Command } from '@anthropic-ai/sdk/resources/beta';

/** What a command answered: its text, or the message of what it threw. */
export async function answerOf(tool: MemoryToolHandlers, command: Command): Promise<string> {
  try {
    const handler = tool[command.command] as (c: Command) => Promise<unknown>;
    return `ok: ${String(await handler.call(tool, command))}`;
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/** Removes the folders below `root` that hold nothing (deepest first); `root` stays. */
export function pruneEmptyFolders(root: string): void {
  const prune = (dir: string): boolean => {
    let empty = true;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory() && prune(path)) rmdirSync(path);
      else empty = false;
    }
    return empty;
  };
  prune(root);
}

/** Every command and every refusal of the reference, in an order where each one means something. */
export const SCRIPTED: Command[] = [
  { command: 'view', path: '/memories' },
  { command: 'create', path: '/memories/notes.md', file_text: 'alpha\nbeta\ngamma\n' },
  { command: 'create', path: '/memories/notes.md', file_text: 'again' },
  { command: 'create', path: '/memories', file_text: 'root' },
  { command: 'create', path: '/memories/projects/2026/plan.md', file_text: '# Plan\n- ship $& the tool\n- test it' },
  { command: 'create', path: '/memories/projects/empty.txt', file_text: '' },
  { command: 'create', path: '/memories/.secret', file_text: 'hidden from listings' },
  { command: 'create', path: '/memories/node_modules/x.js', file_text: 'skipped in listings' },
  { command: 'create', path: '/memories/a/b/c/deep.md', file_text: 'three folders down' },
  { command: 'create', path: '/memories/unicode-é.md', file_text: 'naïve café 日本語 🧠\n' },
  { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(1536) },
  { command: 'create', path: '/memories/./dots/../dots//file.md', file_text: 'normalised path' },
  { command: 'create', path: '/memoriesX/odd.md', file_text: 'the reference joins what follows /memories' },
  { command: 'create', path: '/other/file.md', file_text: 'outside' },
  { command: 'create', path: '/memories/../escape.md', file_text: 'outside' },
  { command: 'view', path: '/memories' },
  { command: 'view', path: '/memories/' },
  { command: 'view', path: '/memories/projects' },
  { command: 'view', path: '/memories/notes.md' },
  { command: 'view', path: '/memories/notes.md', view_range: [2, 3] },
  { command: 'view', path: '/memories/notes.md', view_range: [2, -1] },
  { command: 'view', path: '/memories/notes.md', view_range: [0, 1] },
  { command: 'view', path: '/memories/notes.md', view_range: [9, 12] },
  { command: 'view', path: '/memories/projects/empty.txt' },
  { command: 'view', path: '/memories/.secret' },
  { command: 'view', path: '/memories/missing.md' },
  { command: 'view', path: '/etc/passwd' },
  { command: 'view', path: '/memories/../../etc' },
  { command: 'str_replace', path: '/memories/notes.md', old_str: 'beta', new_str: 'BETA $1 $$' },
  { command: 'str_replace', path: '/memories/notes.md', old_str: 'a', new_str: 'A' },
  { command: 'str_replace', path: '/memories/notes.md', old_str: 'delta', new_str: 'x' },
  { command: 'str_replace', path: '/memories/notes.md', old_str: 'alpha\nBETA', new_str: 'x' },
  { command: 'str_replace', path: '/memories/notes.md', old_str: 'gamma', new_str: 'gamma\ndelta\nepsilon' },
  { command: 'str_replace', path: '/memories/projects/empty.txt', old_str: '', new_str: 'now full' },
  { command: 'str_replace', path: '/memories/projects/empty.txt', old_str: 'now full', new_str: '' },
  { command: 'str_replace', path: '/memories/projects', old_str: 'a', new_str: 'b' },
  { command: 'str_replace', path: '/memories', old_str: 'a', new_str: 'b' },
  { command: 'str_replace', path: '/memories/missing.md', old_str: 'a', new_str: 'b' },
  { command: 'str_replace', path: '/nowhere', old_str: 'a', new_str: 'b' },
  { command: 'insert', path: '/memories/notes.md', insert_line: 0, insert_text: 'first line\n' },
  { command: 'insert', path: '/memories/notes.md', insert_line: 7, insert_text: 'last line' },
  { command: 'insert', path: '/memories/notes.md', insert_line: 3, insert_text: 'two\nlines\n\n' },
  { command: 'insert', path: '/memories/notes.md', insert_line: 99, insert_text: 'too far' },
  { command: 'insert', path: '/memories/notes.md', insert_line: -1, insert_text: 'negative' },
  { command: 'insert', path: '/memories/projects/empty.txt', insert_line: 1, insert_text: 'after the empty line' },
  { command: 'insert', path: '/memories/projects', insert_line: 0, insert_text: 'x' },
  { command: 'insert', path: '/memories/missing.md', insert_line: 0, insert_text: 'x' },
  { command: 'view', path: '/memories/notes.md' },
  { command: 'view', path: '/memories/projects/empty.txt' },
  { command: 'rename', old_path: '/memories/notes.md', new_path: '/memories/archive/notes-2026.md' },
  { command: 'rename', old_path: '/memories/projects', new_path: '/memories/work/projects' },
  { command: 'rename', old_path: '/memories/big.md', new_path: '/memories/archive/notes-2026.md' },
  { command: 'rename', old_path: '/memories/big.md', new_path: '/memories/work' },
  { command: 'rename', old_path: '/memories/missing.md', new_path: '/memories/found.md' },
  { command: 'rename', old_path: '/memories', new_path: '/memories/moved' },
  { command: 'rename', old_path: '/memories/big.md', new_path: '/memories' },
  { command: 'rename', old_path: '/memories/big.md', new_path: '/tmp/big.md' },
  { command: 'rename', old_path: '/memories/../x', new_path: '/memories/y' },
  { command: 'view', path: '/memories' },
  { command: 'view', path: '/memories/work/projects/2026/plan.md' },
  { command: 'delete', path: '/memories/archive/notes-2026.md' },
  { command: 'delete', path: '/memories/archive/notes-2026.md' },
  { command: 'delete', path: '/memories/work' },
  { command: 'delete', path: '/memories' },
  { command: 'delete', path: '/memories/' },
  { command: 'delete', path: '/memories/../memories' },
  { command: 'delete', path: '/elsewhere' },
  { command: 'delete', path: '/memories/missing' },
  { command: 'view', path: '/memories' },
];

/** A text file's content as the reference holds it, or undefined for a folder or nothing. */
export function referenceText(root: string, memoryPath: string): string | undefined {
  try {
    return readFileSync(join(root, memoryPath.slice('/memories'.length)), 'utf8');
  } catch {
    return undefined;
  }
}

/** A small seeded generator (mulberry32): the same seed, the same sequence. */
export function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (below: number) => Math.floor(next() * below);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick };
}

// Folder names and file names never meet, so no command asks the disk for a folder where a file is
// (the reference then throws the operating system's error, naming its own temporary path).
const FOLDERS = ['d1', 'd2', 'notes', 'node_modules', '.cache'];
const FILES = ['a.md', 'b.txt', 'c', '.hidden.md', 'Z.md', 'é.md'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'café', '日本', '🧠', '', ' ', 'x$&y', 'beta beta'];

type Random = ReturnType<typeof seeded>;

function folderPath(r: Random): string {
  const depth = r.int(4);
  return ['/memories', ...Array.from({ length: depth }, () => r.pick(FOLDERS))].join('/');
}

/** The same place written another way now and then: `//`, `/./`, `x/../`, a trailing slash, or a path that leaves. */
function variant(r: Random, path: string): string {
  const roll = r.next();
  if (roll < 0.04) return path.replace('/memories', '/memories/..');
  if (roll < 0.06) return path.replace('/memories', '/data');
  if (roll < 0.09) return path.replace('/memories', '/memories/.');
  if (roll < 0.12) return path.replace('/memories', '/memories/d2/..');
  if (roll < 0.15) return path.replace('/memories', '/memories/');
  if (roll < 0.18 && path !== '/memories') return `${path}/`;
  return path;
}

function text(r: Random): string {
  const roll = r.next();
  if (roll < 0.08) return '';
  if (roll < 0.12) return `${'long line '.repeat(150)}\n`;
  const lines = Array.from({ length: 1 + r.int(5) }, () => Array.from({ length: r.int(4) }, () => r.pick(WORDS)).join(' '));
  return lines.join('\n') + (r.next() < 0.3 ? '\n' : '');
}

/** The reference's files and folders now (paths under /memories), to aim most commands at something that exists. */
function existing(root: string): { files: string[]; folders: string[] } {
  const found = { files: [] as string[], folders: ['/memories'] };
  const walk = (dir: string, path: string) => {
    for (const name of readdirSync(dir)) {
      const child = `${path}/${name}`;
      if (statSync(join(dir, name)).isDirectory()) {
        found.folders.push(child);
        walk(join(dir, name), child);
      } else found.files.push(child);
    }
  };
  walk(root, '/memories');
  return found;
}

/** The next random command, given the reference's files at `root`. */
export function randomCommand(r: Random, root: string): Command {
  const now = existing(root);
  const file = () => (now.files.length > 0 && r.next() < 0.7 ? r.pick(now.files) : `${folderPath(r)}/${r.pick(FILES)}`);
  const folder = () => (r.next() < 0.6 ? r.pick(now.folders) : folderPath(r));
  const anything = () => (r.next() < 0.6 ? file() : folder());
  switch (r.pick(['view', 'view', 'create', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const)) {
    case 'view': {
      const path = anything();
      const range = r.next() < 0.3 ? [r.int(6) - 1, r.pick([-1, r.int(8)])] : undefined;
      return { command: 'view', path: variant(r, path), ...(range ? { view_range: range } : {}) };
    }
    case 'create':
      return { command: 'create', path: variant(r, file()), file_text: text(r) };
    case 'str_replace': {
      const path = file();
      const content = referenceText(root, path);
      const lines = content?.split('\n') ?? [];
      // By code points: half of a surrogate pair is no text a disk keeps.
      const line = lines.length > 0 ? Array.from(r.pick(lines)) : [];
      const start = r.int(line.length + 1);
      const oldStr = r.next() < 0.8 ? line.slice(start, start + 1 + r.int(8)).join('') : r.pick(WORDS);
      return { command: 'str_replace', path: variant(r, path), old_str: oldStr, new_str: r.next() < 0.2 ? '' : text(r) };
    }
    case 'insert': {
      const path = file();
      const count = (referenceText(root, path) ?? '').split('\n').length;
      return { command: 'insert', path: variant(r, path), insert_line: r.int(count + 3) - 1, insert_text: text(r) };
    }
    case 'delete':
      return { command: 'delete', path: variant(r, anything()) };
    case 'rename': {
      const fromFile = r.next() < 0.6;
      const from = variant(r, fromFile ? file() : folder());
      let to = variant(r, fromFile ? `${folderPath(r)}/${r.pick(FILES)}` : folderPath(r));
      // Into itself is the operating system's refusal (EINVAL), with the reference's temporary path in it.
      if (posix.normalize(`${to}/`).startsWith(posix.normalize(`${from}/`)) && posix.normalize(`${to}/`) !== posix.normalize(`${from}/`)) {
        to = `/memories/${r.pick(FOLDERS)}-moved`;
      }
      return { command: 'rename', old_path: from, new_path: to };
    }
  }
}
