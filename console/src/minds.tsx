// The account's minds: the list (name, memory count, last activity), create (the Mind Key shown once),
// delete after a confirmation that names the mind.
import type { CreatedMind, MindSummary } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { mindHref } from './route.js';
import { rememberConsoleKey } from './session.js';
import { Confirmation, CopyButton, Field, Section, Status, useApp, useCall, useConfirmation, when } from './ui.js';

export function MindsPage() {
  const { client } = useApp();
  const [minds, setMinds] = useState<MindSummary[]>();
  const [created, setCreated] = useState<CreatedMind>();
  const { confirming, keep, ask, close: closeConfirmation } = useConfirmation<MindSummary>();
  const list = useCall();
  const change = useCall();

  const load = () => list.run(async () => setMinds((await client.minds.list()).data));
  useEffect(() => void load(), []);

  const remove = async (mind: MindSummary) => {
    const deleted = await change.run(async () => {
      await client.minds.delete(mind.id);
      return true;
    });
    if (!deleted) return;
    rememberConsoleKey(mind.id, undefined);
    closeConfirmation(false);
    await load();
  };

  return (
    <>
      <h1>Your minds</h1>
      <CreateMind
        onCreated={(mind) => {
          setCreated(mind);
          void load();
        }}
      />
      {created && <NewKey mind={created} onDone={() => setCreated(undefined)} />}
      <Section title="Minds">
        <Status busy={list.busy} error={list.error} label="Loading the minds…" />
        {minds && minds.length === 0 && <p>No mind yet: create one above.</p>}
        {minds && minds.length > 0 && (
          <table class="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Memories</th>
                <th scope="col">Last activity</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {minds.map((mind) => (
                <tr key={mind.id}>
                  <td data-label="Name">
                    <a href={mindHref(mind.id)}>{mind.name}</a>
                    {mind.disabled && <span class="tag warn">disabled</span>}
                    {mind.description && <div class="muted">{mind.description}</div>}
                  </td>
                  <td data-label="Memories">{mind.memory_count}</td>
                  <td data-label="Last activity">{when(mind.last_activity)}</td>
                  <td class="actions">
                    <button type="button" class="danger" onClick={(e) => ask(mind, e.currentTarget)} aria-label={`Delete ${mind.name}`}>
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {confirming && (
          <Confirmation
            question={`Delete the mind ${confirming.name}?`}
            confirm={`Delete ${confirming.name} for good`}
            onConfirm={() => remove(confirming)}
            busy={change.busy}
            keep={keep}
            onKeep={() => closeConfirmation()}
          >
            Delete the mind <strong>{confirming.name}</strong> with its {confirming.memory_count} memories, its tasks, chat, scripts and
            webhooks? This cannot be undone.
          </Confirmation>
        )}
        <Status busy={change.busy} error={change.error} label="Deleting…" />
      </Section>
    </>
  );
}

function CreateMind({ onCreated }: { onCreated(mind: CreatedMind): void }) {
  const { client } = useApp();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    const mind = await run(() => client.minds.create({ name, ...(description ? { description } : {}) }));
    if (mind) {
      setName('');
      setDescription('');
      onCreated(mind);
    }
  };
  return (
    <Section title="Create a mind">
      <form class="row" onSubmit={submit}>
        <Field label="Mind name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Description (optional)" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={busy}>
          Create mind
        </button>
      </form>
      <Status busy={busy} error={error} label="Creating the mind…" />
    </Section>
  );
}

/** The new mind's key, this once. */
function NewKey({ mind, onDone }: { mind: CreatedMind; onDone(): void }) {
  return (
    <section class="card key-once" aria-label="The new Mind Key">
      <h2>The Mind Key of {mind.name}</h2>
      <p class="warn" role="alert">
        Copy it now: it cannot be shown again. Only its hash is stored. Your agents use it to reach this mind; the console does not need it
        (it makes a short-lived key of its own), and the mind's Keys tab makes more keys or revokes this one.
      </p>
      <p>
        <code class="secret" data-testid="mind-key">
          {mind.mind_key}
        </code>
      </p>
      <CopyButton text={mind.mind_key} label="Copy the Mind Key" />
      <button type="button" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
