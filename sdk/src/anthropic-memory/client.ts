// What the memory tool asks of a MindClient, stated here: the adapter's declarations then name no
// contract type (MindClient fits it as it is), and its build stays small and quick.

/** A memory as the tool reads it. */
export interface ToolMemory {
  id: string;
  key: string | null;
  content: string;
  tags: string[];
}

type Versioned = Promise<{ memory: ToolMemory; etag: string }>;
type Note = { category: 'note'; key: string; content: string; tags: string[] };

/** `client.memories`' methods the tool calls: recall by key or key prefix, and the conditional writes. */
export interface MemoryToolClient {
  memories: {
    recall(params: {
      category: 'note';
      memory_key?: string;
      memory_key_prefix?: string;
      limit: number;
    }): PromiseLike<{ data: ToolMemory[] }> & AsyncIterable<ToolMemory>;
    getVersioned(memoryId: string): Versioned;
    create(params: Note): Versioned;
    updateIfUnchanged(memoryId: string, etag: string, params: { content: string; tags: string[] }): Versioned;
    update(memoryId: string, params: { key: string }): Promise<unknown>;
    delete(memoryId: string): Promise<void>;
  };
}
