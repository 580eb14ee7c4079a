// Claude's memory tool (`memory_20250818`) kept in a mind instead of a folder on one machine's disk.
//
//   pnpm --filter @mindservice/examples claude-memory-tool     (MIND_URL, default http://127.0.0.1:3000)
//
// The one-line switch, in an app that runs the Anthropic SDK's tool runner:
//
//   const memory = betaMemoryTool(await BetaLocalFilesystemMemoryTool.init('./memory'));   // before
//   const memory = betaMemoryTool(mindMemoryTool(client));                                 // after
//   await anthropic.beta.messages.toolRunner({ model, max_tokens, tools: [memory], messages });
//
// Here the model's tool calls are replayed from a recording (two conversations, as two instances of an
// app would have them), so the example needs no API key: each goes to the tool, whose answers print.
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import type { BetaMemoryTool20250818Command } from '@anthropic-ai/sdk/resources/beta';
import { mindMemoryTool } from '@mindservice/sdk/anthropic-memory';
import { mindClient } from './shared.js';

/** What Claude asked of its memory tool, recorded: the first conversation learns, the second remembers. */
const CONVERSATIONS: Array<{ user: string; calls: BetaMemoryTool20250818Command[] }> = [
  {
    user: 'Please always use British spelling in my reports, and keep them under 300 words.',
    calls: [
      { command: 'view', path: '/memories' },
      {
        command: 'create',
        path: '/memories/preferences/writing.md',
        file_text: '# Writing\n- British spelling\n- Reports under 300 words\n',
      },
      {
        command: 'str_replace',
        path: '/memories/preferences/writing.md',
        old_str: 'under 300 words',
        new_str: 'under 300 words (hard limit)',
      },
      { command: 'insert', path: '/memories/preferences/writing.md', insert_line: 1, insert_text: 'Learned 2026-11-29.' },
    ],
  },
  {
    user: 'Write the weekly report.',
    calls: [
      { command: 'view', path: '/memories' },
      { command: 'view', path: '/memories/preferences/writing.md' },
      { command: 'view', path: '/memories/notes.md' },
      { command: 'rename', old_path: '/memories/preferences/writing.md', new_path: '/memories/style/writing.md' },
    ],
  },
];

const { client } = await mindClient('claude-memory-tool');
for (const [i, conversation] of CONVERSATIONS.entries()) {
  // A new tool per conversation, as a new instance of the app would make: what it knows is in the mind.
  const memory = betaMemoryTool(mindMemoryTool(client));
  console.log(`conversation ${i + 1}, user: ${conversation.user}`);
  for (const call of conversation.calls) {
    try {
      console.log(`memory ${JSON.stringify(call)}\n-> ${await memory.run(call, undefined as never)}`);
    } catch (err) {
      // The tool runner sends a refusal back as a tool_result with is_error: true.
      console.log(`memory ${JSON.stringify(call)}\n-> error: ${(err as Error).message}`);
    }
  }
}

// The file is a memory of the mind: found by its words, shown in the console, exported with the mind.
const hits = (await client.memories.recall({ q: 'British spelling', mode: 'keyword' })).data;
console.log(`recall "British spelling": ${hits.map((m) => `${m.key} (${m.category}, tags ${m.tags.join(',')})`).join('; ')}`);
console.log('claude memory tool finished');
