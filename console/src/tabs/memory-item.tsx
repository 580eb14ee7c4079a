// One memory of the list: its head, content and times (when it expires, until when it holds), with
// Verify / Unverify (the JWT's privilege), edit, delete and its history.
import type { Memory } from '@mindservice/sdk/browser';
import { useState } from 'preact/hooks';
import { Field, Status, useCall, useMind, when } from '../ui.js';
import { MemoryHistory } from './memory-history.js';

export const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
/** A memory without a key is headed by the start of its content, on one line. */
export const startOf = (content: string) => {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

/** When the memory expires and until when it holds: the two times a person checks first, always shown. */
function Times({ memory, name }: { memory: Memory; name: string }) {
  return (
    <dl class="times small" aria-label={`Times of ${name}`}>
      <dt>Expires</dt>
      <dd>{memory.expires_at ? when(memory.expires_at) : 'never'}</dd>
      <dt>Valid until</dt>
      <dd>{memory.valid_to ? when(memory.valid_to) : 'still holds'}</dd>
      {memory.valid_from && (
        <>
          <dt>Valid from</dt>
          <dd>{when(memory.valid_from)}</dd>
        </>
      )}
      {memory.superseded_by && (
        <>
          <dt>Replaced by</dt>
          <dd class="break">{memory.superseded_by}</dd>
        </>
      )}
    </dl>
  );
}

export function MemoryItem({
  memory,
  score,
  onChanged,
  onDeleted,
}: {
  memory: Memory;
  score: number | undefined;
  onChanged(m: Memory): void;
  onDeleted(): void;
}) {
  const { client } = useMind();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [history, setHistory] = useState(false);
  const [content, setContent] = useState(memory.content);
  const [tags, setTags] = useState(memory.tags.join(', '));
  const { busy, error, run } = useCall();
  const name = memory.key ?? memory.content.slice(0, 40);

  const toggleVerified = async () => {
    const m = await run(() => (memory.verified ? client.memories.unverify(memory.id) : client.memories.verify(memory.id)));
    if (m) onChanged(m);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const m = await run(() => client.memories.update(memory.id, { content, tags: tagsOf(tags) }));
    if (m) {
      onChanged(m);
      setEditing(false);
    }
  };
  const remove = async () => {
    const deleted = await run(async () => {
      await client.memories.delete(memory.id);
      return true;
    });
    if (deleted) onDeleted();
  };

  return (
    <li class="item" aria-label={`Memory ${name}`}>
      <div class="item-head">
        <strong>{memory.key ?? startOf(memory.content)}</strong>
        <span class="tag">{memory.category}</span>
        <span class={memory.verified ? 'tag ok' : 'tag'}>{memory.verified ? `verified ${when(memory.verified_at)}` : 'not verified'}</span>
        {score !== undefined && <span class="muted">score {score.toFixed(2)}</span>}
      </div>
      {editing ? (
        <form class="stack" onSubmit={save}>
          <label class="field">
            <span>Content of {name}</span>
            <textarea required value={content} onInput={(e) => setContent(e.currentTarget.value)} />
          </label>
          <Field label="Tags (comma-separated)" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
          <div class="row">
            <button type="submit" class="primary" disabled={busy}>
              Save
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p class="content">{memory.content}</p>
      )}
      <div class="muted small">
        {memory.tags.length > 0 && <span>tags: {memory.tags.join(', ')} · </span>}
        source: {memory.source ?? '—'} · created {when(memory.created_at)} · updated {when(memory.updated_at)}
      </div>
      <Times memory={memory} name={name} />
      <div class="row">
        <button type="button" onClick={toggleVerified} disabled={busy} aria-label={`${memory.verified ? 'Unverify' : 'Verify'} ${name}`}>
          {memory.verified ? 'Unverify' : 'Verify'}
        </button>
        {!editing && (
          <button
            type="button"
            onClick={() => {
              // From the memory as it is now (a search or a reload may have brought a newer text).
              setContent(memory.content);
              setTags(memory.tags.join(', '));
              setEditing(true);
            }}
            aria-label={`Edit ${name}`}
          >
            Edit
          </button>
        )}
        <button type="button" onClick={() => setHistory(!history)} aria-expanded={history} aria-label={`History of ${name}`}>
          History
        </button>
        {confirming ? (
          <>
            <button type="button" class="danger" onClick={remove} disabled={busy}>
              Delete {name} for good
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" class="danger" onClick={() => setConfirming(true)} aria-label={`Delete ${name}`}>
            Delete
          </button>
        )}
      </div>
      <Status busy={busy} error={error} />
      {history && <MemoryHistory memory={memory} name={name} />}
    </li>
  );
}
