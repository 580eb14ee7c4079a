// What a session asks of a MindClient, stated here: the adapter's declarations then name no contract
// type (MindClient fits it as it is), and its build stays small and quick.

/** A chat message as the session reads it. */
export interface SessionMessage {
  id: string;
  role: 'human' | 'agent';
  content: string;
}

/** `client.chat`'s methods the session calls, and the raw history route (for its `next_before`). */
export interface SessionClient {
  chat: {
    send(params: { role: 'human' | 'agent'; content: string; thread: string }): Promise<unknown>;
    delete(messageId: string): Promise<void>;
    clearThread(thread: string): Promise<unknown>;
  };
  api: {
    chat: {
      listChatMessages(args: { query: { thread: string; limit: number; before: string | undefined } }): Promise<{ body: unknown }>;
    };
  };
}
