// A stand-in for `screen-remote-agent`, in-process: it registers with an install code and answers commands
// with a drawn screen, so that computer-loop.ts runs on any machine. A real agent does the same through
// the same AgentClient, with real screenshots and real clicks.
import { deflateSync } from 'node:zlib';
import { AgentClient, type MindClient } from '@mindservice/sdk';
import { MIND_URL } from './shared.js';

const WIDTH = 320;
const HEIGHT = 200;

export interface FakeAgent {
  computerId: string;
  stop(): Promise<void>;
}

export async function startFakeAgent(client: MindClient): Promise<FakeAgent> {
  const { install_code } = await client.computers.createInstallCode({ computer_name: 'fake-desktop' });
  const agent = new AgentClient({ baseUrl: MIND_URL });
  const { computer_id } = await agent.register({
    code: install_code,
    computer_name: 'fake-desktop',
    platform: process.platform,
    platform_release: 'in-process',
    python: `node ${process.version}`,
  });

  let cursor = { x: 20, y: 20 };
  const controller = new AbortController();
  const loop = (async () => {
    for await (const command of agent.commands({ wait: 10, signal: controller.signal })) {
      const payload = command.payload as { x?: number; y?: number };
      if (command.type === 'screenshot') {
        const png = drawScreen(cursor);
        await agent.postResult(command.command_id, {
          status: 'done',
          result: { screenshot_b64: png.toString('base64'), width: WIDTH, height: HEIGHT },
        });
      } else if (command.type === 'click' || command.type === 'move') {
        cursor = { x: payload.x ?? cursor.x, y: payload.y ?? cursor.y };
        await agent.postResult(command.command_id, { status: 'done', result: { ok: true, x: cursor.x, y: cursor.y } });
      } else {
        await agent.postResult(command.command_id, { status: 'done', result: { ok: true } });
      }
    }
  })().catch((err: Error) => console.error(`fake agent stopped: ${err.message}`));
  return {
    computerId: computer_id,
    async stop() {
      controller.abort();
      await loop;
    },
  };
}

/** A grey screen with a blue "button" in the middle and a red dot where the pointer is. */
function drawScreen(cursor: { x: number; y: number }): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < HEIGHT; y++) {
    const row = Buffer.alloc(1 + WIDTH * 3); // filter byte 0, then RGB
    for (let x = 0; x < WIDTH; x++) {
      const button = Math.abs(x - WIDTH / 2) < 50 && Math.abs(y - HEIGHT / 2) < 15;
      const pointer = (x - cursor.x) ** 2 + (y - cursor.y) ** 2 < 16;
      const [r, g, b] = pointer ? [220, 30, 30] : button ? [40, 90, 200] : [200, 200, 200];
      row.set([r, g, b], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
