// Chat: a thread's messages, oldest first and the newest last, and a message of the person's own.
import type { ChatMessage, Page } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Field, Section, Status, useCall, useMind, when } from '../ui.js';

export function ChatTab() {
  const { client } = useMind();
  const [thread, setThread] = useState('default');
  const [messages, setMessages] = useState<ChatMessage[]>();
  /** The oldest page read: the API pages back from the newest. */
  const [oldest, setOldest] = useState<Page<ChatMessage>>();
  const [text, setText] = useState('');
  const list = useCall();
  const send = useCall();

  const load = (name = thread) =>
    void list.run(async () => {
      const page = await client.chat.list({ thread: name, limit: 100 });
      setMessages(page.data);
      setOldest(page);
    });
  const older = () =>
    void list.run(async () => {
      const page = await oldest!.getNextPage();
      setMessages((shown) => [...page.data, ...(shown ?? [])]);
      setOldest(page);
    });
  useEffect(() => load(), []);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (await send.run(() => client.chat.send({ thread, role: 'human', content: text }))) {
      setText('');
      load();
    }
  };
  return (
    <Section title="Chat">
      <form
        class="row"
        onSubmit={(e) => {
          e.preventDefault();
          load();
        }}
      >
        <Field label="Thread" required value={thread} onInput={(e) => setThread(e.currentTarget.value)} />
        <button type="submit">Show thread</button>
      </form>
      <Status busy={list.busy} error={list.error} label="Loading the thread…" />
      {messages?.length === 0 && <p>No message in this thread.</p>}
      {oldest?.hasNextPage() && (
        <button type="button" onClick={older} disabled={list.busy}>
          Show older messages
        </button>
      )}
      <ol class="chat">
        {messages?.map((m) => (
          <li key={m.id} class={`msg ${m.role}`}>
            <div class="muted small">
              {m.role} · {when(m.created_at)}
            </div>
            <p class="content">{m.content}</p>
          </li>
        ))}
      </ol>
      <form class="row" onSubmit={submit}>
        <Field label="Message" required value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={send.busy}>
          Send
        </button>
      </form>
      <Status busy={send.busy} error={send.error} label="Sending…" />
    </Section>
  );
}
