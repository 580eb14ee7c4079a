// Scripts: the mind's scripts by name; view one, edit its content, or add one.
import type { Script } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Field, Section, Status, useCall, useMind, when } from '../ui.js';

export function ScriptsTab() {
  const { client } = useMind();
  const [scripts, setScripts] = useState<Script[]>();
  const [open, setOpen] = useState<string>();
  const list = useCall();
  const load = () => void list.run(async () => setScripts((await client.scripts.list({ limit: 100 })).data));
  useEffect(load, []);

  return (
    <>
      <NewScript onCreated={load} />
      <Section title="Scripts">
        <Status busy={list.busy} error={list.error} label="Loading the scripts…" />
        {scripts?.length === 0 && <p>No script yet.</p>}
        <ul class="items">
          {scripts?.map((script) => (
            <li key={script.id} class="item" aria-label={`Script ${script.name}`}>
              <div class="item-head">
                <strong>{script.name}</strong>
                {script.language && <span class="tag">{script.language}</span>}
                <span class="muted small">updated {when(script.updated_at)}</span>
                <button
                  type="button"
                  onClick={() => setOpen(open === script.id ? undefined : script.id)}
                  aria-expanded={open === script.id}
                >
                  {open === script.id ? `Close ${script.name}` : `View ${script.name}`}
                </button>
              </div>
              {script.description && <p>{script.description}</p>}
              {open === script.id && <ScriptEditor script={script} onSaved={load} />}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

function ScriptEditor({ script, onSaved }: { script: Script; onSaved(): void }) {
  const { client } = useMind();
  const [content, setContent] = useState(script.content);
  const { busy, error, run } = useCall();
  const save = async (e: Event) => {
    e.preventDefault();
    if (await run(() => client.scripts.update(script.id, { content }))) onSaved();
  };
  return (
    <form class="stack" onSubmit={save}>
      <label class="field">
        <span>Content of {script.name}</span>
        <textarea class="code" rows={12} value={content} onInput={(e) => setContent(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary" disabled={busy || content === script.content}>
        Save {script.name}
      </button>
      <Status busy={busy} error={error} label="Saving…" />
    </form>
  );
}

function NewScript({ onCreated }: { onCreated(): void }) {
  const { client } = useMind();
  const [name, setName] = useState('');
  const [language, setLanguage] = useState('');
  const [content, setContent] = useState('');
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await run(() => client.scripts.create({ name, content, ...(language ? { language } : {}) }))) {
      setName('');
      setContent('');
      onCreated();
    }
  };
  return (
    <details class="card">
      <summary>Add a script</summary>
      <form class="stack" onSubmit={submit}>
        <Field label="Script name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <Field label="Language (optional)" value={language} onInput={(e) => setLanguage(e.currentTarget.value)} />
        <label class="field">
          <span>Script content</span>
          <textarea class="code" rows={8} required value={content} onInput={(e) => setContent(e.currentTarget.value)} />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Add script
        </button>
        <Status busy={busy} error={error} label="Adding…" />
      </form>
    </details>
  );
}
