import type { MemoryToolClient, ToolMemory } from './client.js';
import { isFileKey, ROOT_KEY } from './paths.js';

/** Every file's tag; and the one that marks an empty file, whose content the mind keeps as EMPTY_TEXT. */
export const FILE_TAG = 'memory-tool';
export const EMPTY_TAG = 'memory-tool:empty';
/** A memory's content has at least one character: an empty file is stored as this, tagged EMPTY_TAG. */
export const EMPTY_TEXT = '(empty file)';
/** The service's limits on a memory's content (characters) and key. */
export const MAX_CONTENT = 65536;
export const MAX_KEY = 200;

/** A file of the tool: a `note` memory whose key is its path. */
export interface MindFile {
  id: string;
  key: string;
  text: string;
}

const utf8 = new TextEncoder();
export const byteLength = (text: string) => utf8.encode(text).length;

/** The status of an error the client threw (its error classes are not imported: another bundle may hold them). */
export const statusOf = (err: unknown): number | undefined =>
  typeof err === 'object' && err !== null ? (err as { statusCode?: number }).statusCode : undefined;

const toFile = (memory: ToolMemory): MindFile => ({
  id: memory.id,
  key: memory.key ?? '',
  text: memory.tags.includes(EMPTY_TAG) ? '' : memory.content,
});

/** What a file's text is stored as: its content and tags. */
export function storedForm(text: string): { content: string; tags: string[] } {
  return text === '' ? { content: EMPTY_TEXT, tags: [FILE_TAG, EMPTY_TAG] } : { content: text, tags: [FILE_TAG] };
}

/** The mind's files, by key: a file is found by its key, a directory by the keys below it. */
export class MindFiles {
  constructor(readonly client: MemoryToolClient) {}

  async find(key: string): Promise<MindFile | undefined> {
    // A key longer than a mind's keys is no file of it (and no question the service takes).
    if (key === ROOT_KEY || [...key].length > MAX_KEY) return undefined;
    const page = await this.client.memories.recall({ category: 'note', memory_key: key, limit: 1 });
    const memory = page.data[0];
    return memory && toFile(memory);
  }

  /** The file with its version, for a conditional write; undefined when it is gone. */
  async read(id: string): Promise<{ file: MindFile; etag: string } | undefined> {
    try {
      const { memory, etag } = await this.client.memories.getVersioned(id);
      return { file: toFile(memory), etag };
    } catch (err) {
      if (statusOf(err) === 404) return undefined;
      throw err;
    }
  }

  /** Every file below the directory `key` (all depths), in no particular order. */
  async below(key: string, limit?: number): Promise<MindFile[]> {
    const prefix = `${key}/`;
    const found: MindFile[] = [];
    if ([...prefix].length > MAX_KEY) return found;
    for await (const memory of this.client.memories.recall({ category: 'note', memory_key_prefix: prefix, limit: limit ?? 100 })) {
      if (memory.key !== null && isFileKey(memory.key)) found.push(toFile(memory));
      if (limit !== undefined && found.length >= limit) break;
    }
    return found;
  }

  async isDirectory(key: string): Promise<boolean> {
    return key === ROOT_KEY || (await this.below(key, 1)).length > 0;
  }

  /** Creates the file only if no memory has its key (false then). */
  async create(key: string, text: string): Promise<boolean> {
    try {
      await this.client.memories.create({ category: 'note', key, ...storedForm(text) });
      return true;
    } catch (err) {
      if (statusOf(err) === 412) return false;
      throw err;
    }
  }

  /** Writes the text if the file is still the version `etag` names; false when it changed meanwhile. */
  async writeIfUnchanged(id: string, etag: string, text: string): Promise<boolean> {
    try {
      await this.client.memories.updateIfUnchanged(id, etag, storedForm(text));
      return true;
    } catch (err) {
      if (statusOf(err) === 412) return false;
      throw err;
    }
  }

  /** Gives the file a new key (its path); false when another memory has that key. */
  async move(id: string, key: string): Promise<boolean> {
    try {
      await this.client.memories.update(id, { key });
      return true;
    } catch (err) {
      if (statusOf(err) === 409) return false;
      throw err;
    }
  }

  async delete(id: string): Promise<void> {
    try {
      await this.client.memories.delete(id);
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }
}
