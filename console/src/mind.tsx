// One mind: its tabs. The API reads a mind's content with its Mind Key only, so a mind whose key this tab
// does not know asks for it (the key made here is known); computers and the agent's setup need only the JWT.
import type { MindSummary } from '@mindservice/sdk/browser';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { mindHref } from './route.js';
import { clientFor, mindKeyOf, rememberMindKey } from './session.js';
import { ChatTab } from './tabs/chat.js';
import { ComputersTab } from './tabs/computers.js';
import { ConnectTab } from './tabs/connect.js';
import { MemoriesTab } from './tabs/memories.js';
import { ScriptsTab } from './tabs/scripts.js';
import { TasksTab } from './tabs/tasks.js';
import { WebhooksTab } from './tabs/webhooks.js';
import { Field, MindContext, type MindState, Status, useApp, useCall } from './ui.js';

const TABS = [
  ['memories', 'Memories', true],
  ['tasks', 'Tasks', true],
  ['chat', 'Chat', true],
  ['scripts', 'Scripts', true],
  ['webhooks', 'Webhooks', true],
  ['computers', 'Computers', false],
  ['connect', 'Connect an agent', false],
] as const;

export function MindPage({ mindId, tab }: { mindId: string; tab: string }) {
  const app = useApp();
  const [mind, setMind] = useState<MindSummary>();
  const [key, setKey] = useState(() => mindKeyOf(mindId));
  const [keyMessage, setKeyMessage] = useState<string>();
  const { busy, error, run } = useCall();

  useEffect(() => {
    void run(async () => {
      const found = (await app.client.minds.list()).data.find((m) => m.id === mindId);
      if (!found) throw new Error('No such mind among yours: it may have been deleted.');
      setMind(found);
    });
  }, [mindId]);

  const state = useMemo<MindState>(
    () => ({
      mindId,
      mindName: mind?.name ?? '',
      client: clientFor(app.session, key),
      forgetKey(message: string) {
        rememberMindKey(mindId, undefined);
        setKeyMessage(message);
        setKey(undefined);
      },
    }),
    [mindId, mind, key, app.session],
  );

  const current = TABS.find(([id]) => id === tab) ?? TABS[0];
  const Tab = {
    memories: MemoriesTab,
    tasks: TasksTab,
    chat: ChatTab,
    scripts: ScriptsTab,
    webhooks: WebhooksTab,
    computers: ComputersTab,
    connect: ConnectTab,
  }[current[0]];
  return (
    <MindContext.Provider value={state}>
      <p>
        <a href="#/minds">← All minds</a>
      </p>
      <h1>{mind ? mind.name : 'Mind'}</h1>
      <Status busy={busy} error={error} label="Loading the mind…" />
      <nav class="tabs" aria-label="Parts of the mind">
        {TABS.map(([id, label]) => (
          <a key={id} href={mindHref(mindId, id)} aria-current={id === current[0] ? 'page' : undefined}>
            {label}
          </a>
        ))}
      </nav>
      {current[2] && !key ? (
        <KeyPrompt
          message={keyMessage}
          onKey={async (k) => {
            // A key opens the mind it belongs to, whatever page it is pasted on: one of the person's
            // other minds would show its content under this one's name.
            const { mind_id } = await clientFor(app.session, k).memories.stats();
            if (mind_id !== mindId)
              throw new Error(`That is the key of another mind, not of ${mind?.name ?? 'this one'}: paste this mind's key.`);
            rememberMindKey(mindId, k);
            setKeyMessage(undefined);
            setKey(k);
          }}
        />
      ) : (
        <>
          {current[2] && (
            <p class="row">
              <button
                type="button"
                onClick={() => {
                  rememberMindKey(mindId, undefined);
                  setKey(undefined);
                }}
              >
                Use another Mind Key
              </button>
            </p>
          )}
          <Tab key={`${current[0]}-${key ?? ''}`} />
        </>
      )}
    </MindContext.Provider>
  );
}

/** Asks for the mind's key: the API shows a mind's content to its key only. */
function KeyPrompt({ message, onKey }: { message?: string | undefined; onKey(key: string): Promise<void> }) {
  const [value, setValue] = useState('');
  const { busy, error, run } = useCall();
  return (
    <form
      class="card"
      aria-label="Open the mind with its key"
      onSubmit={(e) => {
        e.preventDefault();
        void run(() => onKey(value.trim()));
      }}
    >
      <h2>Open the mind with its key</h2>
      <p>
        The service shows a mind's memories, tasks, chat, scripts and webhooks to its Mind Key (<code>mk_…</code>), which was shown once
        when the mind was made. This browser tab keeps it until you sign out.
      </p>
      {message && (
        <p role="alert" class="error">
          {message}
        </p>
      )}
      <Field
        label="Mind Key"
        type="password"
        autocomplete="off"
        required
        pattern="mk_.+"
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit" class="primary" disabled={busy}>
        Open the mind
      </button>
      <Status busy={busy} error={error} label="Checking the key…" />
    </form>
  );
}
