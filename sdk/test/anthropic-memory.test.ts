// Claude's memory tool on a mind (@mindservice/sdk/anthropic-memory) answers as the Anthropic SDK's
// BetaLocalFilesystemMemoryTool does on a local folder: the same commands to both, every answer
// compared byte for byte, on a live service (SQLite, then PostgreSQL under scripts/test.mjs).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { mindMemoryTool } from '../src/anthropic-memory.js';
import type { MindClient } from '../src/index.js';
import { startLiveServer, type LiveServer } from './live-server.js';
import { answerOf, pruneEmptyFolders, randomCommand, SCRIPTED, seeded } from './memory-tool-sequences.js';

describe('anthropic-memory: mindMemoryTool', () => {
  let live: LiveServer;
  let work: string;
  before(async () => {
    live = await startLiveServer();
    work = mkdtempSync(join(tmpdir(), 'memory-tool-reference-'));
  });
  after(async () => {
    await live.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** A fresh reference folder and a fresh mind, and a step that runs one command on both. */
  async function pair(name: string) {
    const reference = await BetaLocalFilesystemMemoryTool.init(join(work, name));
    const root = join(work, name, 'memories');
    const { client } = await live.account();
    const tool = mindMemoryTool(client);
    const log: string[] = [];
    return {
      client,
      root,
      async step(command: Parameters<typeof answerOf>[1]) {
        const expected = await answerOf(reference, command);
        pruneEmptyFolders(root);
        const actual = await answerOf(tool, command);
        log.push(`${JSON.stringify(command)}\n  -> ${JSON.stringify(expected)}`);
        assert.equal(actual, expected, `after:\n${log.slice(-6).join('\n')}`);
        return actual;
      },
    };
  }

  it('a scripted sequence of every command and every refusal answers as the reference does', async () => {
    const { step, client } = await pair('scripted');
    const answers: string[] = [];
    for (const command of SCRIPTED) answers.push(await step(command));
    // It means something: successes and refusals of every command.
    for (const name of ['view', 'create', 'str_replace', 'insert', 'delete', 'rename']) {
      const of = SCRIPTED.map((c, i) => [c, answers[i]!] as const).filter(([c]) => c.command === name);
      assert.ok(
        of.some(([, a]) => a.startsWith('ok: ')),
        `${name} succeeded somewhere`,
      );
      assert.ok(
        of.some(([, a]) => a.startsWith('error: ')),
        `${name} was refused somewhere`,
      );
    }
    await assertFilesAreMemories(client);
  });

  it('a seeded random sequence of 300 commands answers as the reference does', async () => {
    const { step, root } = await pair('random');
    const r = seeded(Number(process.env.MEMORY_TOOL_SEED ?? 20261129));
    const counts: Record<string, number> = {};
    for (let i = 0; i < 300; i++) {
      const command = randomCommand(r, root);
      const answer = await step(command);
      const kind = `${command.command} ${answer.startsWith('ok') ? 'ok' : 'error'}`;
      counts[kind] = (counts[kind] ?? 0) + 1;
    }
    for (const name of ['view', 'create', 'str_replace', 'insert', 'delete', 'rename']) {
      assert.ok(counts[`${name} ok`], `${name} succeeded at least once: ${JSON.stringify(counts)}`);
    }
  });

  /** What the tool wrote is the mind's: found by words through GET /memory/recall, a `note` keyed by its path. */
  async function assertFilesAreMemories(client: MindClient) {
    const hits = (await client.memories.recall({ q: 'three folders down', mode: 'keyword' })).data;
    const hit = hits.find((m) => m.key === '/memories/a/b/c/deep.md');
    assert.ok(hit, `recall found the file: ${JSON.stringify(hits.map((h) => h.key))}`);
    assert.equal(hit.category, 'note');
    assert.deepEqual(hit.tags, ['memory-tool']);
  }

  it('two editors of one file at once: every edit either found in the file or clearly refused, none lost', async () => {
    const { client } = await live.account();
    const editors = ['left', 'right'].map((name) => ({ name, tool: mindMemoryTool(client.withOptions({})) }));
    const path = '/memories/shared.md';
    assert.equal(
      await answerOf(editors[0]!.tool, { command: 'create', path, file_text: 'header' }),
      `ok: File created successfully at: ${path}`,
    );
    const outcomes = await Promise.all(
      editors.map(async ({ name, tool }) => {
        const made: Array<{ line: string; answer: string }> = [];
        for (let i = 0; i < 15; i++) {
          const line = `${name} ${i}`;
          const answer =
            i % 3 === 2
              ? await answerOf(tool, { command: 'str_replace', path, old_str: `${name} ${i - 1}`, new_str: line })
              : await answerOf(tool, { command: 'insert', path, insert_line: 1, insert_text: line });
          made.push({ line, answer });
        }
        return made;
      }),
    );
    const final = await answerOf(editors[0]!.tool, { command: 'view', path });
    const lines = final
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t')[1]!);
    // What each editor's written edits leave: its inserted lines, each replaced line swapped for its successor.
    const expected = new Set<string>(['header']);
    let written = 0;
    for (const { line, answer } of outcomes.flat()) {
      if (!answer.startsWith('ok: ')) {
        // A refusal says so; a replace whose line was never inserted (that insert refused) finds nothing to replace.
        assert.match(
          answer,
          /^error: (The file \/memories\/shared\.md was changed by another writer during each of 5 tries|No replacement was performed)/,
        );
        continue;
      }
      written++;
      const [name, i] = line.split(' ');
      if (Number(i) % 3 === 2) expected.delete(`${name} ${Number(i) - 1}`);
      expected.add(line);
    }
    assert.deepEqual([...lines].sort(), [...expected].sort(), final);
    assert.ok(written >= 15, `most edits were written (${written} of 30)`);
  });

  it("refuses what a mind cannot hold, in the reference's words, and writes nothing", async () => {
    const { client } = await live.account();
    const tool = mindMemoryTool(client);
    const tooLong = await answerOf(tool, { command: 'create', path: '/memories/big.md', file_text: 'x'.repeat(65537) });
    assert.equal(tooLong, 'error: File /memories/big.md is too long (65,537 characters). Maximum is 65,536 characters.');
    const longName = `/memories/${'n'.repeat(200)}.md`;
    const keyTooLong = await answerOf(tool, { command: 'create', path: longName, file_text: 'x' });
    assert.equal(keyTooLong, `error: Path ${longName} is too long (213 characters). Maximum is 200 characters.`);
    const blank = await answerOf(tool, { command: 'create', path: '/memories/trailing ', file_text: 'x' });
    assert.equal(blank, "error: Path /memories/trailing  ends with whitespace, which a memory's key cannot.");
    assert.equal((await client.memories.stats()).total, 0);
  });
});
