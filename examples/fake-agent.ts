// A stand-in for `screen-remote-agent`, in-process: it registers with an install code and answers commands
// with a drawn screen, so that computer-loop.ts and computer-use-loop.ts run on any machine. A real agent
// does the same through the same AgentClient, with real screenshots and real clicks.
import { deflateSync } from 'node:zlib';
import { AgentClient, type MindClient } from '@mindservice/sdk';
import { MIND_URL } from './shared.js';

export interface FakeAgentOptions {
  /** The simulated screen, default 320x200. */
  width?: number;
  height?: number;
}

export interface FakeAgent {
  computerId: string;
  /** Clicks that landed on the blue button in the middle of the screen. */
  readonly buttonClicks: number;
  stop(): Promise<void>;
}

interface Point {
  x: number;
  y: number;
}
/** The part of the screen a PNG shows, and how many PNG pixels per screen pixel. */
interface View {
  x: number;
  y: number;
  width: number;
  height: number;
  scale: number;
}

export async function startFakeAgent(client: MindClient, options: FakeAgentOptions = {}): Promise<FakeAgent> {
  const screen = { width: options.width ?? 320, height: options.height ?? 200 };
  const { install_code } = await client.computers.createInstallCode({ computer_name: 'fake-desktop' });
  const agent = new AgentClient({ baseUrl: MIND_URL });
  const { computer_id } = await agent.register({
    code: install_code,
    computer_name: 'fake-desktop',
    platform: process.platform,
    platform_release: 'in-process',
    python: `node ${process.version}`,
    screen,
  });

  const button = { x: screen.width / 2, y: screen.height / 2, halfWidth: screen.width * 0.156, halfHeight: screen.height * 0.075 };
  const onButton = (p: Point) => Math.abs(p.x - button.x) < button.halfWidth && Math.abs(p.y - button.y) < button.halfHeight;
  let cursor: Point = { x: Math.round(screen.width / 16), y: Math.round(screen.height / 10) };
  let buttonClicks = 0;

  /** The result of a screenshot of `view`, drawn with the pointer and the button (green once clicked). */
  const screenshot = (view: View) => {
    const width = Math.max(1, Math.round(view.width * view.scale));
    const height = Math.max(1, Math.round(view.height * view.scale));
    const png = drawScreen(width, height, (px, py) => {
      const at = { x: view.x + px / view.scale, y: view.y + py / view.scale };
      const radius = Math.max(4, screen.width / 160);
      if ((at.x - cursor.x) ** 2 + (at.y - cursor.y) ** 2 < radius ** 2) return [220, 30, 30];
      if (onButton(at)) return buttonClicks > 0 ? [40, 170, 60] : [40, 90, 200];
      return [200, 200, 200];
    });
    const scale = Math.round(view.scale * 10_000) / 10_000;
    return { screenshot_b64: png.toString('base64'), width, height, screen_width: screen.width, screen_height: screen.height, scale };
  };
  /** The whole screen, scaled down to max_width / max_height (never up). */
  const fullScreen = (p: { max_width?: number; max_height?: number }) =>
    screenshot({
      x: 0,
      y: 0,
      ...screen,
      scale: Math.min(
        1,
        (p.max_width ?? Number.POSITIVE_INFINITY) / screen.width,
        (p.max_height ?? Number.POSITIVE_INFINITY) / screen.height,
      ),
    });

  const controller = new AbortController();
  const loop = (async () => {
    for await (const command of agent.commands({ wait: 10, signal: controller.signal })) {
      const p = command.payload as Partial<Point> & {
        toX?: number;
        toY?: number;
        path?: Point[];
        width?: number;
        height?: number;
        max_width?: number;
        max_height?: number;
        screenshot?: boolean;
        duration_ms?: number;
      };
      let result: Record<string, unknown> = { ok: true };
      switch (command.type) {
        case 'screenshot':
          result = fullScreen(p);
          break;
        case 'zoom': {
          const region = { x: p.x ?? 0, y: p.y ?? 0, width: p.width ?? screen.width, height: p.height ?? screen.height };
          const fit = Math.min((p.max_width ?? region.width) / region.width, (p.max_height ?? region.height) / region.height);
          result = screenshot({ ...region, scale: p.max_width || p.max_height ? fit : 1 });
          break;
        }
        case 'wait':
          await new Promise((r) => setTimeout(r, Math.min(p.duration_ms ?? 0, 200))); // simulated: no need to wait long
          if (p.screenshot) result = fullScreen(p);
          break;
        case 'cursor_position':
          result = { x: cursor.x, y: cursor.y };
          break;
        case 'drag': {
          const end = p.path?.at(-1) ?? { x: p.toX ?? cursor.x, y: p.toY ?? cursor.y };
          cursor = { x: end.x, y: end.y };
          result = { ok: true, x: cursor.x, y: cursor.y };
          break;
        }
        case 'click':
        case 'move':
        case 'scroll':
        case 'mouse_down':
        case 'mouse_up':
          cursor = { x: p.x ?? cursor.x, y: p.y ?? cursor.y };
          if (command.type === 'click' && onButton(cursor)) buttonClicks++;
          result = { ok: true, x: cursor.x, y: cursor.y };
          break;
      }
      await agent.postResult(command.command_id, { status: 'done', result });
    }
  })().catch((err: Error) => console.error(`fake agent stopped: ${err.message}`));
  return {
    computerId: computer_id,
    get buttonClicks() {
      return buttonClicks;
    },
    async stop() {
      controller.abort();
      await loop;
    },
  };
}

/** An RGB PNG of `width` x `height`, each pixel's colour from `colour(x, y)`. */
function drawScreen(width: number, height: number, colour: (x: number, y: number) => number[]): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3); // filter byte 0, then RGB
    for (let x = 0; x < width; x++) row.set(colour(x, y), 1 + x * 3);
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
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
