// The computer-control loop an LLM agent runs: list computers, take a screenshot, decide, click, read the
// command's result, take a new screenshot.
//
//   pnpm --filter @mindservice/examples computer-loop     (MIND_URL, default http://127.0.0.1:3000)
//
// With MIND_KEY set, it uses that mind's computers: the first one online (run `screen-remote-agent` on a
// machine registered to the mind). Without MIND_KEY, or when no computer of the mind is online, it starts
// a fake agent in this process (fake-agent.ts) that answers with a drawn screen, so the example runs
// anywhere. The output says which one it used.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeAgent, type FakeAgent } from './fake-agent.js';
import { mindClient } from './shared.js';

const { client } = await mindClient('computer-loop');

// 1. List computers; use one that is online, else a fake agent.
const { data: computers } = await client.computers.list();
let computer = computers.find((c) => c.online && c.status === 'active');
let fake: FakeAgent | undefined;
if (!computer) {
  fake = await startFakeAgent(client);
  computer = await client.computers.get(fake.computerId);
  console.log(`no computer online: started a fake in-process agent (${computer.computer_name})`);
} else {
  console.log(`using ${computer.computer_name} (${computer.platform} ${computer.platform_release})`);
}

try {
  // 2. Screenshot: PNG bytes. An LLM would look at it; here we read its size from the PNG header.
  const before = await client.computers.screenshot(computer.id);
  const { width, height } = pngSize(before);
  const file = join(tmpdir(), `screenshot-${computer.id}.png`);
  writeFileSync(file, before);
  console.log(`screenshot ${width}x${height}, ${before.length} bytes, saved to ${file}`);

  // 3. Act: click the middle of the screen and wait for the agent's result.
  const click = await client.computers.run(computer.id, {
    type: 'click',
    payload: { x: Math.floor(width / 2), y: Math.floor(height / 2) },
  });
  console.log(`click ${click.status}: ${JSON.stringify(click.result ?? click.error)}`);
  if (click.status !== 'done') throw new Error(`the click did not succeed: ${click.status}`);

  // 4. Look again to see what changed.
  const after = await client.computers.screenshot(computer.id);
  console.log(`new screenshot ${after.length} bytes; changed: ${Buffer.compare(Buffer.from(before), Buffer.from(after)) !== 0}`);

  // The first page of the command history, newest first (`for await` would walk all of it).
  const recent = await client.computers.listCommands(computer.id, { limit: 5 });
  console.log(`recent commands: ${recent.data.map((c) => `${c.type}:${c.status}`).join(', ')}`);
  console.log('computer loop finished');
} finally {
  await fake?.stop();
}

function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (view.readUInt32BE(0) !== 0x89504e47) throw new Error('the screenshot is not a PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}
