// One mind: its tabs. The API reads a mind's content with a Mind Key only, so opening one of the person's
// minds makes a short-lived key of source `console` with their JWT (never a pasted key), makes the next
// one before it expires and revokes the one it replaces. Computers, keys and the agent's setup need only the JWT.
import type { MindSummary } from '@mindservice/sdk/browser';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { mindHref } from './route.js';
import { CONSOLE_KEY_MARGIN_MS, type ConsoleKey, clientFor, consoleKeyOf, rememberConsoleKey } from './session.js';
import { ChatTab } from './tabs/chat.js';
import { ComputersTab } from './tabs/computers.js';
import { ConnectTab } from './tabs/connect.js';
import { KeysTab } from './tabs/keys.js';
import { MemoriesTab } from './tabs/memories.js';
import { ScriptsTab } from './tabs/scripts.js';
import { TasksTab } from './tabs/tasks.js';
import { WebhooksTab } from './tabs/webhooks.js';
import { type AppState, MindContext, type MindState, Status, useApp, useCall } from './ui.js';

const TABS = [
  ['memories', 'Memories', true],
  ['tasks', 'Tasks', true],
  ['chat', 'Chat', true],
  ['scripts', 'Scripts', true],
  ['webhooks', 'Webhooks', true],
  ['computers', 'Computers', false],
  ['keys', 'Keys', false],
  ['connect', 'Connect an agent', false],
] as const;

/** A replaced key stays valid this long, for the calls still under way with it. */
const REPLACED_KEY_GRACE_MS = 30_000;
/** A key refused this soon after a refused one was replaced is not replaced again: the error is shown. */
const REFUSED_AGAIN_MS = 10_000;

const usable = (key: ConsoleKey | undefined) => key && Date.parse(key.expiresAt) - Date.now() > CONSOLE_KEY_MARGIN_MS;

/** Revokes a key the console no longer uses; one that has expired already goes with the service's purge. */
function retire(app: AppState, mindId: string, key: ConsoleKey) {
  if (Date.parse(key.expiresAt) <= Date.now()) return;
  window.setTimeout(() => void app.client.minds.keys.revoke(mindId, key.id).catch(() => undefined), REPLACED_KEY_GRACE_MS);
}

/** The mind's console key: the one this tab holds while it has time left, else a new one; renewed before it expires. */
function useConsoleKey(mindId: string) {
  const app = useApp();
  const [key, setKey] = useState<ConsoleKey | undefined>(() => (usable(consoleKeyOf(mindId)) ? consoleKeyOf(mindId) : undefined));
  const { busy, error, setError, run } = useCall();
  const renewing = useRef<Promise<unknown> | undefined>(undefined);
  const replacedAt = useRef(0);

  const renew = () => {
    renewing.current ??= run(async () => {
      const old = consoleKeyOf(mindId);
      const made = await app.client.minds.keys.create(mindId, { label: 'console', source: 'console' });
      const next = { id: made.id, secret: made.mind_key, expiresAt: made.expires_at ?? '' };
      rememberConsoleKey(mindId, next);
      setKey(next);
      if (old && old.id !== next.id) retire(app, mindId, old);
    }).finally(() => {
      renewing.current = undefined;
    });
    return renewing.current;
  };

  useEffect(() => {
    if (!key) void renew();
  }, []);
  useEffect(() => {
    if (!key) return undefined;
    const timer = window.setTimeout(() => void renew(), Math.max(0, Date.parse(key.expiresAt) - Date.now() - CONSOLE_KEY_MARGIN_MS));
    return () => window.clearTimeout(timer);
  }, [key]);

  /** The service refused the key (revoked in the Keys tab, or expired while the computer slept): a new one. */
  const refused = async (message: string) => {
    if (Date.now() - replacedAt.current < REFUSED_AGAIN_MS) {
      setError(message);
      return false;
    }
    replacedAt.current = Date.now();
    await renew();
    return true;
  };
  return { key, busy, error, refused };
}

export function MindPage({ mindId, tab }: { mindId: string; tab: string }) {
  const app = useApp();
  const [mind, setMind] = useState<MindSummary>();
  const consoleKey = useConsoleKey(mindId);
  // Bumped when a refused key was replaced: the tab loads again with the new one.
  const [generation, setGeneration] = useState(0);
  const { busy, error, run } = useCall();

  useEffect(() => {
    void run(async () => {
      const found = (await app.client.minds.list()).data.find((m) => m.id === mindId);
      if (!found) throw new Error('No such mind among yours: it may have been deleted.');
      setMind(found);
    });
  }, [mindId]);

  const secret = consoleKey.key?.secret;
  const state = useMemo<MindState>(
    () => ({
      mindId,
      mindName: mind?.name ?? '',
      client: clientFor(app.session, secret),
      consoleKeyId: consoleKey.key?.id,
      keyRefused(message: string) {
        void consoleKey.refused(message).then((renewed) => renewed && setGeneration((g) => g + 1));
      },
    }),
    [mindId, mind, secret, app.session],
  );

  const current = TABS.find(([id]) => id === tab) ?? TABS[0];
  const Tab = {
    memories: MemoriesTab,
    tasks: TasksTab,
    chat: ChatTab,
    scripts: ScriptsTab,
    webhooks: WebhooksTab,
    computers: ComputersTab,
    keys: KeysTab,
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
      <Status busy={consoleKey.busy} error={consoleKey.error} label="Opening the mind…" />
      {(!current[2] || secret) && <Tab key={`${current[0]}-${generation}`} />}
    </MindContext.Provider>
  );
}
