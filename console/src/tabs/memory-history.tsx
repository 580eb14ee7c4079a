// A memory's history: its earlier contents, oldest first with the current one last (a page at a
// time), and the chain of memories that replaced one another, with when each held.
import type { Memory, MemoryChainLink, MemoryVersion, Page } from '@mindservice/sdk/browser';
import { useEffect, useState } from 'preact/hooks';
import { Status, useCall, useMind, when } from '../ui.js';

const held = (link: MemoryChainLink) =>
  `${link.valid_from ? when(link.valid_from) : 'always'} – ${link.valid_to ? when(link.valid_to) : 'now'}`;

export function MemoryHistory({ memory, name }: { memory: Memory; name: string }) {
  const { client } = useMind();
  const [versions, setVersions] = useState<MemoryVersion[]>();
  const [chain, setChain] = useState<MemoryChainLink[]>();
  const [lastPage, setLastPage] = useState<Page<MemoryVersion>>();
  const { busy, error, run } = useCall();

  // Read again when the memory changes (an edit adds a version).
  useEffect(() => {
    void run(async () => {
      const page = await client.memories.history(memory.id, { limit: 20 });
      setVersions(page.data);
      setLastPage(page);
      // A chain is short: its first hundred links.
      setChain((await client.memories.chain(memory.id, { limit: 100 })).data);
    });
  }, [memory.id, memory.updated_at]);
  const more = () =>
    void run(async () => {
      const page = await lastPage!.getNextPage();
      setVersions((all) => [...(all ?? []), ...page.data]);
      setLastPage(page);
    });

  return (
    <div class="history card">
      <Status busy={busy} error={error} label="Reading the history…" />
      {versions && (
        <>
          <h4>Versions</h4>
          <ol class="versions" aria-label={`Versions of ${name}`}>
            {versions.map((version, i) => (
              <li key={`${version.at}-${i}`}>
                <span class="muted small">{when(version.at)}</span>
                <p class="content">{version.content}</p>
              </li>
            ))}
          </ol>
          {lastPage?.hasNextPage() && (
            <button type="button" onClick={more} disabled={busy}>
              Show more versions
            </button>
          )}
        </>
      )}
      {chain && chain.length > 1 && (
        <>
          <h4>Replaced one another</h4>
          <ol class="chain" aria-label={`Chain of ${name}`}>
            {chain.map((link) => (
              <li key={link.id} aria-current={link.id === memory.id ? 'true' : undefined}>
                <span class="muted small">{held(link)}</span>
                <p class="content">
                  {link.content}
                  {link.id === memory.id && <span class="tag">this memory</span>}
                </p>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
