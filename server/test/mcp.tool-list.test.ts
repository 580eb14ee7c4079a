// The tool list a model reads in every conversation: small (under 24,000 characters of JSON, as
// either protocol generation lists it) and written for a model: descriptions that name tools, never
// routes, HTTP statuses or query syntax; arguments named for what they hold; no examples, no long
// patterns; booleans as booleans, mapped back to the route's words.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';
import { connectV1, connectV2, dataOf, type McpClient, useMcpUrl } from './mcp/clients.js';

const MAX_TOOL_LIST_CHARS = 24_000;
/** What a description for a model must not hold: routes, HTTP statuses, query-string syntax, setting names. */
const NOT_FOR_A_MODEL: Array<[string, RegExp]> = [
  ['a REST route', /\b(?:GET|POST|PUT|PATCH|DELETE) \//],
  ['an HTTP status', /\b(?:HTTP|20[0-4]|4\d\d|5\d\d)\b(?!\s*(?:characters|items|pixels|bytes|milliseconds|words))/],
  ['query-string syntax', /[?&][a-z_]+=/],
  ['a setting', /\bMIND_[A-Z_]+/],
];

type Node = Record<string, unknown>;
/** Every schema node of a tool, with where it is (`queue_command.payload.x`). */
function* nodesOf(node: unknown, where: string): Generator<[string, Node]> {
  if (typeof node !== 'object' || node === null) return;
  if (!Array.isArray(node)) yield [where, node as Node];
  for (const [key, value] of Object.entries(node)) yield* nodesOf(value, key === 'properties' ? where : `${where}.${key}`);
}

describe('the MCP tool list', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);
  const clients: Array<[string, (key: string) => Promise<McpClient>]> = [
    ['v1 client (2025 revisions)', (key) => connectV1(mcpUrl(), key)],
    ['v2 client (2026-07-28)', (key) => connectV2(mcpUrl(), key)],
  ];

  for (const [label, connect] of clients) {
    test(`${label}: all tools take under ${MAX_TOOL_LIST_CHARS} characters of JSON, delete_script among them`, async () => {
      const client = await connect((await svc.mind()).mindKey);
      try {
        const { tools } = await client.listTools();
        const size = JSON.stringify(tools).length;
        assert.ok(size < MAX_TOOL_LIST_CHARS, `tools/list is ${size} characters`);
        assert.ok(
          tools.some((t) => t.name === 'delete_script'),
          'delete_script is a tool',
        );
        assert.ok(tools.length >= 24, `${tools.length} tools`);
      } finally {
        await client.close();
      }
    });
  }

  test('descriptions are written for a model; arguments are named for what they hold, without examples or long patterns', async () => {
    const client = await connectV2(mcpUrl(), (await svc.mind()).mindKey);
    const { tools } = await client.listTools().finally(() => client.close());
    for (const tool of tools) {
      const description = tool.description ?? '';
      assert.match(description, /^[A-Z`].{20,}[.)]$/s, `${tool.name}: at least a sentence`);
      assert.ok(!/^(?:\w+ ){0,3}\w+\.?$/.test(description), `${tool.name}: more than a few words`);
      for (const [where, node] of nodesOf(tool, tool.name)) {
        for (const [what, pattern] of NOT_FOR_A_MODEL) {
          if (typeof node.description === 'string') assert.doesNotMatch(node.description, pattern, `${where}: ${what}`);
        }
        assert.ok(!('examples' in node) && !('example' in node), `${where}: no examples`);
        assert.doesNotMatch(String(node.description ?? ''), /Example:/, `${where}: no example in words`);
        assert.ok(typeof node.pattern !== 'string' || node.pattern.length <= 40, `${where}: a pattern of ${String(node.pattern).length}`);
        const properties = node.type === 'object' ? Object.keys((node.properties as object | undefined) ?? {}) : [];
        assert.ok(!properties.includes('id') && !properties.includes('cid'), `${where}: an argument named for what it holds`);
      }
    }
    const recall = tools.find((t) => t.name === 'recall_memories');
    assert.equal((recall?.inputSchema.properties?.verified as { type?: string } | undefined)?.type, 'boolean');
  });

  test('a boolean argument reaches the route as its word: verified true and false filter recall_memories', async () => {
    const { mindKey } = await svc.mind();
    const client = await connectV1(mcpUrl(), mindKey);
    try {
      const stored = dataOf(await client.callTool({ name: 'store_memory', arguments: { category: 'fact', content: 'Owls fly at night' } }));
      const found = async (verified: boolean) => {
        const result = await client.callTool({ name: 'recall_memories', arguments: { q: 'owls', verified } });
        assert.notEqual(result.isError, true, result.content[0]?.text);
        return (dataOf(result).memories as Array<{ id: string }>).map((m) => m.id);
      };
      assert.deepEqual(await found(false), [stored.id]);
      assert.deepEqual(await found(true), []);
    } finally {
      await client.close();
    }
  });
});
