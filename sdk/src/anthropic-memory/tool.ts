import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import type {
  BetaMemoryTool20250818CreateCommand as CreateCommand,
  BetaMemoryTool20250818DeleteCommand as DeleteCommand,
  BetaMemoryTool20250818InsertCommand as InsertCommand,
  BetaMemoryTool20250818RenameCommand as RenameCommand,
  BetaMemoryTool20250818StrReplaceCommand as StrReplaceCommand,
  BetaMemoryTool20250818ViewCommand as ViewCommand,
} from '@anthropic-ai/sdk/resources/beta';
import type { MemoryToolClient } from './client.js';
import { byteLength, MAX_CONTENT, MAX_KEY, type MindFile, MindFiles } from './files.js';
import { viewDirectory } from './listing.js';
import { parentKeys, type ResolvedPath, resolvePath } from './paths.js';
import { insertAt, replaceOnce, viewFile } from './text.js';

export interface MindMemoryToolOptions {
  /** Tries of an edit whose file another writer changed meanwhile, each on the file as it then is (default 5). */
  maxAttempts?: number;
}

const notFound = (path: string) => new Error(`The path ${path} does not exist. Please provide a valid path.`);
const gone = (path: string) => new Error(`The file ${path} no longer exists (may have been deleted or renamed concurrently).`);

/** The limits a mind has and a disk has not, refused in the reference's words before anything is written. */
function checkLimits(path: string, key: string, text?: string): void {
  if ([...key].length > MAX_KEY) {
    throw new Error(`Path ${path} is too long (${[...key].length} characters). Maximum is ${MAX_KEY} characters.`);
  }
  if (/\s$/u.test(key)) throw new Error(`Path ${path} ends with whitespace, which a memory's key cannot.`);
  if (text !== undefined && text.length > MAX_CONTENT) {
    throw new Error(`File ${path} is too long (${text.length.toLocaleString('en-US')} characters). Maximum is 65,536 characters.`);
  }
}

/**
 * Claude's memory tool (`memory_20250818`) on a mind: the Anthropic SDK's `MemoryToolHandlers`, for
 * `betaMemoryTool(mindMemoryTool(client))`. Each file is a `note` memory keyed by its path; each
 * answer is the one BetaLocalFilesystemMemoryTool gives for the same files (docs/sdk.md).
 */
export function mindMemoryTool(client: MemoryToolClient, options: MindMemoryToolOptions = {}): MemoryToolHandlers {
  const files = new MindFiles(client);
  const maxAttempts = options.maxAttempts ?? 5;

  /** The file at a path, or the reference's refusal when it is missing or a directory. */
  async function fileAt(path: string, resolved: ResolvedPath): Promise<MindFile> {
    const file = await files.find(resolved.key);
    if (file) return file;
    if (await files.isDirectory(resolved.key)) throw new Error(`The path ${path} is not a file.`);
    throw notFound(path);
  }

  /** A file's key or a directory's keys exist at this path. */
  const exists = async (key: string) => (await files.find(key)) !== undefined || (await files.isDirectory(key));

  /** Refuses a path below a file (a disk cannot make that folder). */
  async function checkParents(path: string, key: string): Promise<void> {
    for (const parent of parentKeys(key)) {
      if (await files.find(parent)) throw new Error(`Cannot write ${path}: ${parent} is a file, not a directory`);
    }
  }

  /**
   * Reads the file, edits its text, writes it if no one wrote it meanwhile; otherwise edits it again
   * as it then is. Never overwrites another's edit: after `maxAttempts` it refuses instead.
   */
  async function edit(path: string, key: string, change: (text: string) => { text: string; answer: string }): Promise<string> {
    let file = await fileAt(path, resolvePath(path));
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const read = await files.read(file.id);
      if (!read) throw gone(path);
      const { text, answer } = change(read.file.text);
      checkLimits(path, key, text);
      if (await files.writeIfUnchanged(file.id, read.etag, text)) return answer;
      file = (await files.find(key)) ?? (await Promise.reject(gone(path)));
    }
    throw new Error(
      `The file ${path} was changed by another writer during each of ${maxAttempts} tries of this edit; nothing was written. View it and try again.`,
    );
  }

  return {
    async view(command: ViewCommand) {
      const resolved = resolvePath(command.path);
      const file = await files.find(resolved.key);
      if (file) return viewFile(command.path, file.text, command.view_range);
      const below = await files.below(resolved.key);
      if (below.length === 0 && !resolved.isRoot) throw notFound(command.path);
      const start = resolved.key.length + 1;
      return viewDirectory(
        command.path,
        below.map((f) => ({ relativePath: f.key.slice(start), bytes: byteLength(f.text) })),
      );
    },

    async create(command: CreateCommand) {
      const { key, isRoot } = resolvePath(command.path);
      const taken = () => new Error(`File ${command.path} already exists`);
      if (isRoot || (await exists(key))) throw taken();
      await checkParents(command.path, key);
      checkLimits(command.path, key, command.file_text);
      if (!(await files.create(key, command.file_text))) throw taken();
      return `File created successfully at: ${command.path}`;
    },

    async str_replace(command: StrReplaceCommand) {
      const { key } = resolvePath(command.path);
      return edit(command.path, key, (text) => {
        const { content, answer } = replaceOnce(command.path, text, command.old_str, command.new_str);
        return { text: content, answer };
      });
    },

    async insert(command: InsertCommand) {
      const { key } = resolvePath(command.path);
      return edit(command.path, key, (text) => ({
        text: insertAt(text, command.insert_line, command.insert_text),
        answer: `The file ${command.path} has been edited.`,
      }));
    },

    async delete(command: DeleteCommand) {
      const { key, isRoot } = resolvePath(command.path);
      if (isRoot) throw new Error('Cannot delete the /memories directory itself');
      const file = await files.find(key);
      const doomed = file ? [file] : await files.below(key);
      if (doomed.length === 0) throw new Error(`The path ${command.path} does not exist`);
      for (const f of doomed) await files.delete(f.id);
      return `Successfully deleted ${command.path}`;
    },

    async rename(command: RenameCommand) {
      const from = resolvePath(command.old_path);
      const to = resolvePath(command.new_path);
      if (from.isRoot) throw new Error('Cannot rename the /memories directory itself');
      const destinationTaken = () => new Error(`The destination ${command.new_path} already exists`);
      if (to.isRoot || (await exists(to.key))) throw destinationTaken();
      await checkParents(command.new_path, to.key);
      const file = await files.find(from.key);
      const moving = file ? [file] : await files.below(from.key);
      if (moving.length === 0) throw new Error(`The path ${command.old_path} does not exist`);
      if (!file && to.key.startsWith(`${from.key}/`)) {
        throw new Error(`Cannot move ${command.old_path} into itself (${command.new_path})`);
      }
      const moves = moving.map((f) => ({ id: f.id, key: to.key + f.key.slice(from.key.length) }));
      for (const move of moves) checkLimits(command.new_path, move.key);
      for (const move of moves) if (!(await files.move(move.id, move.key))) throw destinationTaken();
      return `Successfully renamed ${command.old_path} to ${command.new_path}`;
    },
  };
}
