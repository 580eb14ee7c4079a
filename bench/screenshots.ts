// Screenshots benchmark: an agent stores N large screenshots (random, incompressible PNG-like bytes,
// posted as base64 like the real agent does), then the size and time of what a client reads back:
// the default page of GET /computers/:id/commands, the largest page (limit=200), and one PNG from
// its own route; the server's RSS afterwards.
//
//   node --import tsx bench/screenshots.ts   (BENCH_QUICK=1 for a small run; DATABASE_URL: also PostgreSQL)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ms, percentile, type Row, row, runAlone, sortNumbers } from './lib/report.js';
import { type DatabaseKind, withMindService } from './lib/servers.js';

export interface ScreenshotsOptions {
  /** Screenshots stored. */
  screenshots: number;
  /** Bytes of each PNG. */
  pngBytes: number;
  /** Times each read is repeated (the median and the worst are reported). */
  reads: number;
}

export const SCREENSHOTS_FULL: ScreenshotsOptions = { screenshots: 20, pngBytes: 1024 * 1024, reads: 50 };
export const SCREENSHOTS_QUICK: ScreenshotsOptions = { screenshots: 20, pngBytes: 1024 * 1024, reads: 10 };
/** A page of commands stays a few KB whatever the screenshots weigh; reading it takes milliseconds. */
const TARGETS = { pageKb: 64, pageP50Ms: 20 };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const kb = (bytes: number) => bytes / 1024;
const mb = (bytes: number) => bytes / 1024 / 1024;

/** GET with the raw bytes of the answer (what travels), timed. */
async function timedGet(url: string, token: string): Promise<{ status: number; bytes: Buffer; ms: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, bytes, ms: performance.now() - started };
}

async function repeatGet(url: string, token: string, times: number) {
  const timings: number[] = [];
  let size = 0;
  for (let i = 0; i < times; i++) {
    const res = await timedGet(url, token);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.bytes.subarray(0, 300)}`);
    timings.push(res.ms);
    size = res.bytes.length;
  }
  const sorted = sortNumbers(timings);
  return { size, p50: percentile(sorted, 50), max: sorted.at(-1)! };
}

export async function benchScreenshots(kind: DatabaseKind, opts: ScreenshotsOptions): Promise<Row[]> {
  return withMindService(kind, {}, async (server, client) => {
    const { mindKey } = await client.newMind('screenshots');
    const code = await client.ok('POST', '/computers/install-code', mindKey, {});
    const { computer_id: computerId, computer_token: token } = await client.ok('POST', '/computers/register', undefined, {
      code: code.install_code,
      computer_name: 'bench-screens',
      platform: 'linux',
      platform_release: 'bench',
      python: process.version,
    });

    const storeStarted = performance.now();
    let lastCommandId = '';
    for (let i = 0; i < opts.screenshots; i++) {
      await client.ok('POST', `/computers/${computerId}/commands`, mindKey, { type: 'screenshot' });
      const polled = await client.ok('GET', '/computers/me/poll?wait=0', token, undefined, 200);
      const [command] = polled.commands as Array<{ command_id: string }>;
      const png = Buffer.concat([PNG_SIGNATURE, randomBytes(opts.pngBytes - PNG_SIGNATURE.length)]);
      const result = { screenshot_b64: png.toString('base64'), width: 1920, height: 1080 };
      await client.ok('POST', `/computers/me/commands/${command!.command_id}/result`, token, { status: 'done', result }, 200);
      lastCommandId = command!.command_id;
    }
    const storeMs = performance.now() - storeStarted;

    const base = `${server.url}/computers/${computerId}`;
    const page = await repeatGet(`${base}/commands`, mindKey, opts.reads);
    const largest = await repeatGet(`${base}/commands?limit=200`, mindKey, opts.reads);
    const png = await repeatGet(`${base}/commands/${lastCommandId}/screenshot`, mindKey, opts.reads);
    const rss = server.rssBytes();

    const stored = `${opts.screenshots} x ${mb(opts.pngBytes).toFixed(1)} MB screenshots`;
    return [
      row(
        `GET /computers/:id/commands (default page), ${stored}: size`,
        kind,
        `${kb(page.size).toFixed(1)} KB`,
        { bytes: page.size },
        { op: '<=', value: TARGETS.pageKb, unit: 'KB' },
        kb(page.size),
      ),
      row(
        `GET /computers/:id/commands (default page), ${stored}: time`,
        kind,
        `${ms(page.p50)} p50 (max ${ms(page.max)}, ${opts.reads} reads)`,
        { p50_ms: page.p50, max_ms: page.max },
        { op: '<=', value: TARGETS.pageP50Ms, unit: 'ms' },
        page.p50,
      ),
      row(
        `GET /computers/:id/commands?limit=200, ${stored}`,
        kind,
        `${kb(largest.size).toFixed(1)} KB, ${ms(largest.p50)} p50 (max ${ms(largest.max)})`,
        { bytes: largest.size, p50_ms: largest.p50, max_ms: largest.max },
      ),
      row(
        'GET /computers/:id/commands/:cid/screenshot (one PNG)',
        kind,
        `${mb(png.size).toFixed(2)} MB, ${ms(png.p50)} p50 (max ${ms(png.max)})`,
        { bytes: png.size, p50_ms: png.p50, max_ms: png.max },
      ),
      row(
        `storing ${stored} (queue, poll, post each)`,
        kind,
        `${ms(storeMs / opts.screenshots)} per screenshot; server RSS afterwards ${mb(rss).toFixed(0)} MB`,
        { per_screenshot_ms: storeMs / opts.screenshots, rss_mb: mb(rss) },
      ),
    ];
  });
}

await runAlone(import.meta.url, (kind, quick) => benchScreenshots(kind, quick ? SCREENSHOTS_QUICK : SCREENSHOTS_FULL));
