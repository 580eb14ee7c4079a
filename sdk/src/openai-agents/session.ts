import type { AgentInputItem, Session } from '@openai/agents-core';
import type { SessionClient, SessionMessage } from './client.js';

/** The service's largest page of chat history. */
const PAGE = 100;

export interface MindSessionOptions {
  client: SessionClient;
  /** The chat thread the session is kept in (1..200 characters, no leading or trailing blank). */
  sessionId: string;
}

const statusOf = (err: unknown): number | undefined =>
  typeof err === 'object' && err !== null ? (err as { statusCode?: number }).statusCode : undefined;

/**
 * An item from a message: the JSON the session stored; a message someone else posted to the thread
 * (the console, another client) is the user's or the assistant's words, by its role.
 */
function itemOf(message: SessionMessage): AgentInputItem {
  try {
    const item = JSON.parse(message.content) as unknown;
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) return item as AgentInputItem;
  } catch {
    // Not JSON: plain words.
  }
  return message.role === 'human'
    ? { role: 'user', content: message.content }
    : { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: message.content }] };
}

/** A user's input is the human's message; everything else (the model's output, tool calls and results) the agent's. */
const roleOf = (item: AgentInputItem): SessionMessage['role'] => ('role' in item && item.role === 'user' ? 'human' : 'agent');

/**
 * A session of the OpenAI Agents SDK kept in a chat thread of a mind: `@openai/agents-core`'s
 * `Session`, answering what its `MemorySession` answers, each item one message holding its JSON.
 */
export class MindSession implements Session {
  private readonly client: SessionClient;
  private readonly sessionId: string;

  constructor(options: MindSessionOptions) {
    const { sessionId } = options;
    if (typeof sessionId !== 'string' || sessionId.trim() !== sessionId || sessionId.length === 0 || sessionId.length > 200) {
      throw new TypeError('sessionId must be 1..200 characters without leading or trailing whitespace (it names a chat thread)');
    }
    this.client = options.client;
    this.sessionId = sessionId;
  }

  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  /** The newest `limit` messages (all without it), oldest first: with a limit, only those are read. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && limit <= 0) return [];
    return (await this.newest(limit ?? Number.POSITIVE_INFINITY)).map(itemOf);
  }

  /** Appends the items in order, one message each. */
  async addItems(items: AgentInputItem[]): Promise<void> {
    for (const item of items) {
      await this.client.chat.send({ role: roleOf(item), content: JSON.stringify(item), thread: this.sessionId });
    }
  }

  /** Removes the newest item and answers it; when two pop at once, each gets another item. */
  async popItem(): Promise<AgentInputItem | undefined> {
    for (;;) {
      const [newest] = await this.newest(1);
      if (!newest) return undefined;
      try {
        await this.client.chat.delete(newest.id);
        return itemOf(newest);
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
      }
    }
  }

  async clearSession(): Promise<void> {
    await this.client.chat.clearThread(this.sessionId);
  }

  /** The thread's newest `count` messages, oldest first, read a page at a time from the newest back. */
  private async newest(count: number): Promise<SessionMessage[]> {
    const pages: SessionMessage[][] = [];
    let read = 0;
    let before: string | undefined;
    while (read < count) {
      const query = { thread: this.sessionId, limit: Math.min(PAGE, count - read), before };
      // The raw answer: a page can end early at the service's byte bound, and `next_before` says so.
      const answer = await this.client.api.chat.listChatMessages({ query });
      const page = answer.body as { messages: SessionMessage[]; next_before: string | null };
      pages.unshift(page.messages);
      read += page.messages.length;
      if (page.next_before === null) break;
      before = page.next_before;
    }
    return pages.flat().slice(-count);
  }
}
