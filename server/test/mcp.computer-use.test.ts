// Computer use through MCP, against a simulated agent over real HTTP: `screenshot` says the image's
// size (read from the PNG), the screen's and the scale between them, so a model clicks where it sees;
// a command that ended `failed` is a tool error with the agent's reason, from queue_command and get_command.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import { bearer } from './harness.js';
import { poll, postResult, registerComputer } from './computers/helpers.js';
import { useService } from './harness.js';
import { connectV1, connectV2, dataOf, type McpClient, useMcpUrl } from './mcp/clients.js';

/** A real grey PNG of the given size (8-bit greyscale), as an agent would send a scaled-down screen. */
function greyPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // each row's filter byte: none
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

describe('MCP computer use', () => {
  const svc = useService();
  const mcpUrl = useMcpUrl(svc);
  const clients: Array<[string, (key: string) => Promise<McpClient>]> = [
    ['v1 client', (key) => connectV1(mcpUrl(), key)],
    ['v2 client', (key) => connectV2(mcpUrl(), key)],
  ];

  /** The agent's side: takes the next command of `type` and posts `result` for it. */
  async function agentAnswers(token: string, type: string, result: Record<string, unknown>) {
    let command: { command_id: string; type: string } | undefined;
    for (let i = 0; i < 5 && !command; i++) command = (await poll(svc, token, 5)).find((c) => c.type === type);
    assert.ok(command, `the agent got the ${type} command`);
    await postResult(svc, token, command.command_id, result);
    return command.command_id;
  }

  for (const [label, connect] of clients) {
    test(`${label}: screenshot answers the PNG's size, the reported screen's and the scale`, async () => {
      const { mindKey } = await svc.mind();
      const { computerId, token } = await registerComputer(svc, mindKey);
      await svc.http.put('/computers/me/screen').set(bearer(token)).send({ width: 2560, height: 1600 }).expect(200);
      const client = await connect(mindKey);
      try {
        const png = greyPng(1280, 800);
        const shot = client.callTool({ name: 'screenshot', arguments: { computer_id: computerId, max_width: 1280 } });
        // The agent says 2560x1600 of its own: the line takes the sizes from the PNG, not from the agent.
        await agentAnswers(token, 'screenshot', {
          status: 'done',
          result: { screenshot_b64: png.toString('base64'), width: 2560, height: 1600 },
        });
        const result = await shot;
        assert.notEqual(result.isError, true, result.content[0]?.text);
        assert.equal(result.content[0]?.type, 'text');
        assert.match(result.content[0]?.text ?? '', /width 1280, height 800, screen_width 2560, screen_height 1600, scale 0\.5\b/);
        assert.match(result.content[0]?.text ?? '', /x \/ 0\.5, y \/ 0\.5 on the screen/);
        assert.deepEqual(result.content[1], { type: 'image', mimeType: 'image/png', data: png.toString('base64') });
      } finally {
        await client.close();
      }
    });

    test(`${label}: a failed command is a tool error with its reason; a zoom's PNG is an image`, async () => {
      const { mindKey } = await svc.mind();
      const { computerId, token } = await registerComputer(svc, mindKey);
      const client = await connect(mindKey);
      try {
        const queued = client.callTool({
          name: 'queue_command',
          arguments: { computer_id: computerId, type: 'click', payload: { x: 5, y: 6 }, wait: 20 },
        });
        const commandId = await agentAnswers(token, 'click', { status: 'failed', error: 'cannot open display :0' });
        const result = await queued;
        assert.equal(result.isError, true);
        assert.equal(result.content[0]?.text, `Command ${commandId} (click) failed: cannot open display :0`);
        assert.equal((dataOf(result) as { status: string }).status, 'failed');

        const read = await client.callTool({ name: 'get_command', arguments: { computer_id: computerId, command_id: commandId } });
        assert.equal(read.isError, true);
        assert.equal(read.content[0]?.text, result.content[0]?.text);

        // A zoom's (or screenshot's) PNG is an image block, not base64 in the JSON text.
        const png = greyPng(40, 30);
        const zoomed = client.callTool({
          name: 'queue_command',
          arguments: { computer_id: computerId, type: 'zoom', payload: { x: 0, y: 0, width: 20, height: 15 }, wait: 20 },
        });
        await agentAnswers(token, 'zoom', { status: 'done', result: { screenshot_b64: png.toString('base64'), width: 40, height: 30 } });
        const zoom = await zoomed;
        assert.notEqual(zoom.isError, true, zoom.content[0]?.text);
        assert.match(zoom.content[0]?.text ?? '', /Its PNG follows as an image\.$/);
        assert.deepEqual(zoom.content[2], { type: 'image', mimeType: 'image/png', data: png.toString('base64') });
        assert.equal((dataOf(zoom).result as Record<string, unknown>).screenshot_b64, undefined);

        // A command that is done is no error.
        const moved = client.callTool({
          name: 'queue_command',
          arguments: { computer_id: computerId, type: 'move', payload: { x: 1, y: 1 }, wait: 20 },
        });
        await agentAnswers(token, 'move', { status: 'done', result: { ok: true } });
        assert.notEqual((await moved).isError, true);
      } finally {
        await client.close();
      }
    });
  }
});
