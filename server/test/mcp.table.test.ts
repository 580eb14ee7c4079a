// The MCP tool table covers the contract: every route is a tool or says why not, so a new route cannot
// be forgotten (the table's type already refuses to compile without it; this checks the running list).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { contract, listRoutes } from '@mindservice/contract';
import { MCP_TOOLS } from '../src/mcp/table.js';
import { buildTools } from '../src/mcp/tools.js';

describe('the MCP tool table', () => {
  test('classifies every contract route, and nothing else', () => {
    const keys = listRoutes(contract).map((r) => r.key);
    const unclassified = keys.filter((key) => !(key in MCP_TOOLS));
    assert.deepEqual(unclassified, [], 'routes without an entry in MCP_TOOLS');
    const stale = Object.keys(MCP_TOOLS).filter((key) => !keys.includes(key));
    assert.deepEqual(stale, [], 'MCP_TOOLS entries for routes the contract no longer has');
    for (const [key, entry] of Object.entries(MCP_TOOLS)) {
      if (typeof entry !== 'string') assert.ok(entry.not.length > 10, `${key} says why it is no tool`);
    }
  });

  test("a route that takes the mind's key and acts on the mind's data is a tool unless the table says why not", () => {
    const tools = buildTools();
    const toolKeys = new Set(tools.map((t) => t.key));
    for (const { key, metadata } of listRoutes(contract)) {
      if (metadata.auth !== 'mindKey' && metadata.auth !== 'mindKeyOrJwt') continue;
      const entry = MCP_TOOLS[key as keyof typeof MCP_TOOLS];
      assert.ok(toolKeys.has(key) || (typeof entry === 'object' && entry.not), `${key} has a tool or a reason`);
    }
    assert.equal(new Set(tools.map((t) => t.definition.name)).size, tools.length, 'tool names are unique');
  });

  test('every tool input property is described and every tool body field lands in the body', () => {
    for (const tool of buildTools()) {
      const properties = tool.definition.inputSchema.properties as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) assert.ok(property.description, `${tool.definition.name}.${name}`);
      const routed = [...Object.keys(tool.places.path), ...tool.places.query];
      if (!tool.places.body) assert.deepEqual(Object.keys(properties).sort(), routed.sort(), tool.definition.name);
    }
  });

  test('docs/mcp.md lists exactly the tools, with their arguments and kind', () => {
    const guide = readFileSync(new URL('../../docs/mcp.md', import.meta.url), 'utf8');
    const rows = [...guide.matchAll(/^\| `([a-z_]+)` \| [^|]+ \| ([^|]+) \| ([a-z-]+) \|$/gm)].map(
      (m) => `${m[1]} ${m[2]?.trim()} ${m[3]}`,
    );
    const tools = buildTools().map(({ definition: { name, inputSchema, annotations } }) => {
      const args = Object.keys(inputSchema.properties as object).map((p) => `\`${p}\``);
      const kind = annotations.readOnlyHint ? 'read-only' : annotations.destructiveHint ? 'destructive' : 'writes';
      return `${name} ${args.join(', ') || '-'} ${kind}`;
    });
    assert.deepEqual(rows, tools, 'the table in docs/mcp.md has drifted from tools/list');
  });
});
