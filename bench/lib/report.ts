// One row per figure; the table is printed as Markdown and written as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { type DatabaseKind, databaseKinds, ROOT } from './servers.js';

export interface Target {
  /** `>=` for throughput, `<=` for latency and memory. */
  op: '>=' | '<=';
  value: number;
  unit: string;
}

export interface Row {
  benchmark: string;
  /** `sqlite`, `postgresql`, or `-` for the baselines. */
  database: string;
  /** The figure, formatted for people. */
  result: string;
  /** The same figures as numbers (req/s, ms, MB...). */
  figures: Record<string, number>;
  target?: Target;
  /** The figure compared with the target. */
  measured?: number;
  met?: boolean;
}

export function row(
  benchmark: string,
  database: string,
  result: string,
  figures: Record<string, number>,
  target?: Target,
  measured?: number,
): Row {
  const met = target && measured !== undefined ? (target.op === '>=' ? measured >= target.value : measured <= target.value) : undefined;
  return { benchmark, database, result, figures, target, measured, met };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const sortNumbers = (values: number[]) => [...values].sort((a, b) => a - b);
export const ms = (n: number) => `${Number(n.toFixed(n < 10 ? 2 : 1))} ms`;
export const count = (n: number) => Math.round(n).toLocaleString('en');

function targetText(row: Row): string {
  if (!row.target) return '';
  const { op, value, unit } = row.target;
  return `${op} ${value.toLocaleString('en')} ${unit}`;
}

/** By how much a missed target is missed, e.g. `MISSED (-12 %)`. */
function verdict(row: Row): string {
  if (row.met === undefined) return '';
  if (row.met) return 'met';
  const off = ((row.measured! - row.target!.value) / row.target!.value) * 100;
  return `MISSED (${off > 0 ? '+' : ''}${off.toFixed(0)} %)`;
}

export function markdownTable(rows: Row[]): string {
  const header = ['Benchmark', 'DB', 'Result', 'Target', 'Met'];
  const lines = rows.map((r) => [r.benchmark, r.database, r.result, targetText(r), verdict(r)]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [format(header), format(widths.map((w) => '-'.repeat(w))), ...lines.map(format)].join('\n');
}

export interface RunInfo {
  startedAt: string;
  wallSeconds: number;
  quick: boolean;
  loadBefore: number[];
  loadAfter: number[];
  failures: string[];
}

/** Writes bench/results/<timestamp>.json and answers its path. */
export function writeResults(rows: Row[], info: RunInfo): string {
  const dir = join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${info.startedAt.replace(/[:.]/g, '-')}.json`);
  const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? '', node: process.version, platform: process.platform };
  writeFileSync(file, `${JSON.stringify({ ...info, machine, rows }, null, 2)}\n`);
  return file;
}

export const load = () => loadavg().map((n) => Number(n.toFixed(2)));

/** For `node --import tsx bench/<name>.ts` (`moduleUrl`: its import.meta.url): runs that benchmark alone on every database and prints its table. */
export async function runAlone(moduleUrl: string, bench: (kind: DatabaseKind, quick: boolean) => Promise<Row[]>): Promise<void> {
  if (moduleUrl !== `file://${process.argv[1]}`) return;
  const rows: Row[] = [];
  for (const kind of databaseKinds()) rows.push(...(await bench(kind, Boolean(process.env.BENCH_QUICK))));
  console.log(markdownTable(rows));
}
