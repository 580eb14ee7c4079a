// Keys: the mind's keys (label, scope, prefix, source, last used, expiry), a new one (its secret shown
// once, with the copy button) and revoking one after a confirmation that names it. The owner's JWT only.
import type { CreatedMindKey, MindKeySummary } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Confirmation, CopyButton, Field, Section, Select, Status, useApp, useCall, useConfirmation, useMind, when } from '../ui.js';

/** How a key is named to a person and to a screen reader: its label and the start of its secret. */
const nameOf = (key: { label: string; prefix: string | null }) => (key.prefix ? `${key.label} (${key.prefix}…)` : key.label);

export function KeysTab() {
  const { client } = useApp();
  const { mindId, consoleKeyId } = useMind();
  const [keys, setKeys] = useState<MindKeySummary[]>();
  const [created, setCreated] = useState<CreatedMindKey>();
  const { confirming, keep, ask, close: closeConfirmation } = useConfirmation<MindKeySummary>();
  const list = useCall();
  const change = useCall();

  const load = () => list.run(async () => setKeys((await client.minds.keys.list(mindId)).data));
  useEffect(() => void load(), []);

  const revoke = async (key: MindKeySummary) => {
    const revoked = await change.run(async () => {
      await client.minds.keys.revoke(mindId, key.id);
      return true;
    });
    if (!revoked) return;
    closeConfirmation(false);
    await load();
  };

  return (
    <>
      <CreateKey
        onCreated={(key) => {
          setCreated(key);
          void load();
        }}
      />
      {created && <NewKeyOnce created={created} onDone={() => setCreated(undefined)} />}
      <Section
        title="Keys"
        actions={
          <button type="button" onClick={() => void load()}>
            Refresh keys
          </button>
        }
      >
        <p class="muted">
          Each agent can have a key of its own: revoke one and the others keep working. Keys of source <em>console</em> are the ones this
          console makes for itself when you open the mind; they expire within the hour.
        </p>
        <Status busy={list.busy} error={list.error} label="Loading the keys…" />
        {keys && keys.length === 0 && <p>No key: make one above.</p>}
        {keys && keys.length > 0 && (
          <table class="list" aria-label="Keys of the mind">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Scope</th>
                <th scope="col">Prefix</th>
                <th scope="col">Source</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id}>
                  <td data-label="Label">
                    {key.label}
                    {key.id === consoleKeyId && <span class="tag">this page</span>}
                    {key.client_name && <div class="muted">{key.client_name}</div>}
                  </td>
                  <td data-label="Scope">
                    <span class={key.scope === 'read' ? 'tag' : 'tag ok'}>{key.scope}</span>
                  </td>
                  <td data-label="Prefix">
                    <code>{key.prefix ?? '—'}</code>
                  </td>
                  <td data-label="Source">{key.source}</td>
                  <td data-label="Last used">{when(key.last_used_at)}</td>
                  <td data-label="Expires">{key.expires_at ? when(key.expires_at) : 'never'}</td>
                  <td class="actions">
                    <button type="button" class="danger" onClick={(e) => ask(key, e.currentTarget)} aria-label={`Revoke ${nameOf(key)}`}>
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {confirming && (
          <Confirmation
            question={`Revoke the key ${nameOf(confirming)}?`}
            confirm={`Revoke ${nameOf(confirming)} for good`}
            onConfirm={() => revoke(confirming)}
            busy={change.busy}
            keep={keep}
            onKeep={() => closeConfirmation()}
          >
            Revoke the key <strong>{nameOf(confirming)}</strong>? Every agent that uses it is refused from its next request. The mind and
            its other keys stay. This cannot be undone.
          </Confirmation>
        )}
        <Status busy={change.busy} error={change.error} label="Revoking…" />
      </Section>
    </>
  );
}

function CreateKey({ onCreated }: { onCreated(key: CreatedMindKey): void }) {
  const { client } = useApp();
  const { mindId } = useMind();
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<'full' | 'read'>('full');
  const [expires, setExpires] = useState('');
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    // The field is the person's local time; the service takes an instant.
    const expiresAt = expires ? new Date(expires).toISOString() : undefined;
    const key = await run(() => client.minds.keys.create(mindId, { label, scope, ...(expiresAt ? { expires_at: expiresAt } : {}) }));
    if (key) {
      setLabel('');
      setExpires('');
      onCreated(key);
    }
  };
  return (
    <Section title="Make a key">
      <form class="row" onSubmit={submit}>
        <Field label="Key label" required value={label} onInput={(e) => setLabel(e.currentTarget.value)} hint="e.g. research agent" />
        <Select
          label="Key scope"
          value={scope}
          options={[
            ['full', 'Full: read and change the mind'],
            ['read', 'Read only'],
          ]}
          onChange={(value) => setScope(value as 'full' | 'read')}
        />
        <Field
          label="Expires (optional)"
          type="datetime-local"
          value={expires}
          onInput={(e) => setExpires(e.currentTarget.value)}
          hint="Empty: never"
        />
        <button type="submit" class="primary" disabled={busy}>
          Make the key
        </button>
      </form>
      <Status busy={busy} error={error} label="Making the key…" />
    </Section>
  );
}

/** The new key's secret, this once. */
function NewKeyOnce({ created, onDone }: { created: CreatedMindKey; onDone(): void }) {
  return (
    <section class="card key-once" aria-label="The new Mind Key">
      <h2>The key {created.label}</h2>
      <p class="warn" role="alert">
        Copy it now: it cannot be shown again. Only its hash is stored.
      </p>
      <p>
        <code class="secret" data-testid="new-mind-key">
          {created.mind_key}
        </code>
      </p>
      <CopyButton text={created.mind_key} label="Copy the Mind Key" />
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
