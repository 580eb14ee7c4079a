// The memory tools over time, through both official MCP clients: store_memory takes an expiry, a
// validity and `supersedes`; recall_memories answers what holds now unless `as_of` or `include_past`
// asks otherwise; memory_history shows a memory's earlier contents and its supersede chain.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';
import { connectV1, connectV2, dataOf, type McpClient, useMcpUrl } from './mcp/clients.js';

type Hit = { id: string; content: string; superseded_by: string | null; valid_to: string | null; expires_at: string | null };

describe('MCP: memories over time', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);
  const clients: Array<[string, (key: string) => Promise<McpClient>]> = [
    ['v1 client', (key) => connectV1(mcpUrl(), key)],
    ['v2 client', (key) => connectV2(mcpUrl(), key)],
  ];

  for (const [label, connect] of clients) {
    test(`${label}: store with an expiry, a validity and supersedes; recall now, as of then and with the past; the history`, async () => {
      const { mindKey, auth } = await svc.mind();
      const client = await connect(mindKey);
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        assert.notEqual(result.isError, true, `${name}: ${result.content[0]?.text}`);
        return dataOf(result);
      };
      const recalled = async (args: Record<string, unknown> = {}) =>
        ((await call('recall_memories', args)).memories as Hit[]).map((hit) => hit.content).sort();
      try {
        const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
        const trip = (await call('store_memory', { category: 'context', content: 'Travelling in Japan', expires_at: expiresAt })) as Hit;
        assert.equal(Date.parse(trip.expires_at ?? ''), Date.parse(expiresAt), 'the answer shows the expiry');
        await call('store_memory', {
          category: 'project',
          content: 'Led the 2021 migration',
          valid_from: '2021-01-01T00:00:00Z',
          valid_to: '2022-01-01T00:00:00Z',
        });
        const oldEditor = (await call('store_memory', { category: 'preference', content: 'Writes in vim' })) as Hit;
        const newEditor = (await call('store_memory', {
          category: 'preference',
          content: 'Writes in helix',
          supersedes: oldEditor.id,
        })) as Hit;
        const replaced = (await svc.http.get(`/memory/${oldEditor.id}`).set(auth).expect(200)).body as Hit;
        assert.equal(replaced.superseded_by, newEditor.id);

        assert.deepEqual(await recalled(), ['Travelling in Japan', 'Writes in helix']);
        assert.deepEqual(await recalled({ as_of: '2021-06-01T00:00:00Z', category: 'project' }), ['Led the 2021 migration']);
        assert.deepEqual(await recalled({ include_past: true }), [
          'Led the 2021 migration',
          'Travelling in Japan',
          'Writes in helix',
          'Writes in vim',
        ]);
        assert.deepEqual(await recalled({ include_past: false }), ['Travelling in Japan', 'Writes in helix']);

        await call('update_memory', { memory_id: newEditor.id, content: 'Writes in helix, with a dark theme' });
        const history = await call('memory_history', { memory_id: newEditor.id });
        assert.deepEqual(
          (history.versions as Array<{ content: string }>).map((v) => v.content),
          ['Writes in helix', 'Writes in helix, with a dark theme'],
        );
        assert.deepEqual(
          (history.chain as Array<{ id: string }>).map((link) => link.id),
          [oldEditor.id, newEditor.id],
        );

        const bad = await client.callTool({ name: 'store_memory', arguments: { category: 'fact', content: 'x', expires_at: 'soon' } });
        assert.equal(bad.isError, true);
        assert.match(bad.content[0]?.text ?? '', /expires_at/);
      } finally {
        await client.close();
      }
    });
  }
});
