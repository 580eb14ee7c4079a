// Memories: recall (the API's `q` and `mode`), a category filter, the list with Verify / Unverify (the
// JWT's privilege), edit and delete, a new memory, and the stats with pending embeddings.
import type { Memory, MemoryCategory, MemoryStats, Page, RecallHit } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Field, Section, Select, Status, useCall, useMind, when } from '../ui.js';

const CATEGORIES: MemoryCategory[] = ['identity', 'preference', 'fact', 'project', 'skill', 'mistake', 'context', 'note', 'credentials'];
const MODES = [
  ['hybrid', 'Hybrid (words and meaning)'],
  ['keyword', 'Keyword'],
  ['semantic', 'Meaning'],
] as Array<[string, string]>;
const tagsOf = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
/** A memory without a key is headed by the start of its content, on one line. */
const startOf = (content: string) => {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

export function MemoriesTab() {
  const { client } = useMind();
  const [q, setQ] = useState('');
  const [mode, setMode] = useState('hybrid');
  const [category, setCategory] = useState('');
  const [hits, setHits] = useState<RecallHit[]>();
  /** Whether the hits shown answer words (they have scores) or list the newest. */
  const [ranked, setRanked] = useState(false);
  const [stats, setStats] = useState<MemoryStats>();
  /** The last page read: the next one is asked for with "Show more memories". */
  const [lastPage, setLastPage] = useState<Page<RecallHit>>();
  const search = useCall();
  const statsCall = useCall();

  const load = () => {
    void search.run(async () => {
      const page = await client.memories.recall({
        ...(q.trim() ? { q, mode: mode as 'hybrid' | 'keyword' | 'semantic' } : {}),
        ...(category ? { category: category as MemoryCategory } : {}),
        limit: 50,
      });
      setHits(page.data);
      setLastPage(page);
      setRanked(q.trim() !== '');
    });
    loadStats();
  };
  const loadStats = () => void statsCall.run(async () => setStats(await client.memories.stats()));
  useEffect(load, []);
  const more = () =>
    void search.run(async () => {
      const page = await lastPage!.getNextPage();
      setHits((all) => [...(all ?? []), ...page.data]);
      setLastPage(page);
    });

  // A verify, unverify or edit changes the counts too.
  const replace = (memory: Memory) => {
    setHits((all) => all?.map((h) => (h.id === memory.id ? { ...h, ...memory } : h)));
    loadStats();
  };

  return (
    <>
      <Section title="Search the memories">
        <form
          class="row"
          aria-label="Search the memories"
          onSubmit={(e) => {
            e.preventDefault();
            load();
          }}
        >
          <Field
            label="Search for"
            type="search"
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
            placeholder="words or a question"
          />
          <Select label="Mode" value={mode} options={MODES} onChange={setMode} />
          <Select
            label="Category"
            value={category}
            options={[['', 'Every category'], ...CATEGORIES.map((c): [string, string] => [c, c])]}
            onChange={setCategory}
          />
          <button type="submit" class="primary">
            Search
          </button>
        </form>
        <Status busy={search.busy} error={search.error} label="Searching…" />
      </Section>
      <Stats stats={stats} busy={statsCall.busy} error={statsCall.error} />
      <NewMemory onStored={load} />
      <Section title={hits ? `Memories (${hits.length}${lastPage?.hasNextPage() ? '+' : ''})` : 'Memories'}>
        {hits?.length === 0 && <p>No memory matches.</p>}
        <ul class="items">
          {hits?.map((hit) => (
            <MemoryItem key={hit.id} memory={hit} score={ranked ? hit.score : undefined} onChanged={replace} onDeleted={load} />
          ))}
        </ul>
        {lastPage?.hasNextPage() && (
          <button type="button" onClick={more} disabled={search.busy}>
            Show more memories
          </button>
        )}
      </Section>
    </>
  );
}

function Stats({ stats, busy, error }: { stats: MemoryStats | undefined; busy: boolean; error: string | undefined }) {
  return (
    <Section title="Stats">
      <Status busy={busy} error={error} label="Counting…" />
      {stats && (
        <dl class="stats">
          <dt>Memories</dt>
          <dd>{stats.total}</dd>
          <dt>Verified</dt>
          <dd>{stats.verified}</dd>
          <dt>Pending embeddings</dt>
          <dd>{stats.pending_embeddings}</dd>
          <dt>Last change</dt>
          <dd>{when(stats.last_activity)}</dd>
          <dt>By category</dt>
          <dd>
            {Object.entries(stats.by_category)
              .map(([c, n]) => `${c} ${n}`)
              .join(', ') || '—'}
          </dd>
        </dl>
      )}
    </Section>
  );
}

function NewMemory({ onStored }: { onStored(): void }) {
  const { client } = useMind();
  const [category, setCategory] = useState<string>('fact');
  const [key, setKey] = useState('');
  const [content, setContent] = useState('');
  const [tags, setTags] = useState('');
  const { busy, error, run } = useCall();
  const submit = async (e: Event) => {
    e.preventDefault();
    const stored = await run(() =>
      client.memories.store({
        category: category as MemoryCategory,
        content,
        tags: tagsOf(tags),
        source: 'console',
        ...(key ? { key } : {}),
      }),
    );
    if (stored) {
      setKey('');
      setContent('');
      setTags('');
      onStored();
    }
  };
  return (
    <details class="card">
      <summary>Store a memory</summary>
      <form class="stack" onSubmit={submit}>
        <Select
          label="New memory's category"
          value={category}
          options={CATEGORIES.map((c): [string, string] => [c, c])}
          onChange={setCategory}
        />
        <Field label="Key (optional)" value={key} onInput={(e) => setKey(e.currentTarget.value)} />
        <label class="field">
          <span>Content</span>
          <textarea required value={content} onInput={(e) => setContent(e.currentTarget.value)} />
        </label>
        <Field label="Tags (comma-separated)" value={tags} onInput={(e) => setTags(e.currentTarget.value)} />
        <button type="submit" class="primary" disabled={busy}>
          Store memory
        </button>
        <Status busy={busy} error={error} label="Storing…" />
      </form>
    </details>
  );
}

function MemoryItem({
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
    </li>
  );
}
