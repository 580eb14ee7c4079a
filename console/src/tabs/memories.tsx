// Memories: recall (the API's `q` and `mode`), a category filter, what holds now or also what held
// before, the list (memory-item.tsx), a new memory, and the stats with pending embeddings.
import type { Memory, MemoryCategory, MemoryStats, Page, RecallHit } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Field, Section, Select, Status, useCall, useMind, when } from '../ui.js';
import { MemoryItem, tagsOf } from './memory-item.js';

const CATEGORIES: MemoryCategory[] = ['identity', 'preference', 'fact', 'project', 'skill', 'mistake', 'context', 'note', 'credentials'];
const MODES = [
  ['hybrid', 'Hybrid (words and meaning)'],
  ['keyword', 'Keyword'],
  ['semantic', 'Meaning'],
] as Array<[string, string]>;

export function MemoriesTab() {
  const { client } = useMind();
  const [q, setQ] = useState('');
  const [mode, setMode] = useState('hybrid');
  const [category, setCategory] = useState('');
  /** Also the memories that held before (superseded or past their validity); expired ones never come back. */
  const [past, setPast] = useState(false);
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
        ...(past ? { include_past: true } : {}),
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
          <label class="check">
            <input type="checkbox" checked={past} onChange={(e) => setPast(e.currentTarget.checked)} />
            Include past memories
          </label>
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
  /** A local date and time (the browser's datetime-local), sent as the instant it names. */
  const [expires, setExpires] = useState('');
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
        ...(expires ? { expires_at: new Date(expires).toISOString() } : {}),
      }),
    );
    if (stored) {
      setKey('');
      setContent('');
      setTags('');
      setExpires('');
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
        <Field
          label="Expires (optional)"
          type="datetime-local"
          value={expires}
          onInput={(e) => setExpires(e.currentTarget.value)}
          hint="Gone from the mind at this time."
        />
        <button type="submit" class="primary" disabled={busy}>
          Store memory
        </button>
        <Status busy={busy} error={error} label="Storing…" />
      </form>
    </details>
  );
}
