// Where a dispatched command's time goes on PostgreSQL: the statements per command (pg_stat_statements,
// read for this database only), PostgreSQL's own time, and the CPU of the server and of this process.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/<a database of its own> node --import tsx bench/computers-profile.ts
//
// Use a database nobody else runs statements in: pg_stat_statements is shared by the whole cluster,
// and only this database's rows are read and reset. PROFILE_POLLS (1,000) and PROFILE_COMMANDS (500);
// PROFILE_CPU=<dir> for a V8 CPU profile of the measured server; PROFILE_PIN=1 to run this database's
// PostgreSQL backends on core 1 and the server and this process on core 0 (taskset).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pollers, registerComputers, timeDispatch } from './computers.js';
import { Client } from './lib/client.js';
import { ms, percentile, sortNumbers } from './lib/report.js';
import { createDataPlace, startChild, startMindService } from './lib/servers.js';

const polls = Number(process.env.PROFILE_POLLS ?? 1000);
const commands = Number(process.env.PROFILE_COMMANDS ?? 500);
const base = process.env.DATABASE_URL;
if (!base) throw new Error('DATABASE_URL is not set');

const psql = (sql: string) => execFileSync('psql', [base, '-XAtF', '\t', '-c', sql], { encoding: 'utf8' }).trim();
const dbid = psql('select oid from pg_database where datname = current_database()');
/** CPU time (user + system) of a process so far, in ms. */
const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (100/s)
};

const place = await createDataPlace('postgresql');
const fleet = { MIND_MAX_COMPUTERS_PER_USER: '100000', MIND_MAX_COMPUTERS_PER_MIND: '100000', MIND_MAX_INSTALL_CODES_PER_MIND: '10000' };
let server = await startMindService(place, fleet);
let client = new Client(server.url);
try {
  const mind = await client.newMind('profile-computers');
  const computers = await registerComputers(client, mind.mindKey, polls);
  client.close();
  await server.stop();

  // PROFILE_CPU=<dir>: the measured server writes a V8 CPU profile there when it stops.
  server = process.env.PROFILE_CPU
    ? await startChild(
        ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_CPU}`, 'server/bin/mind-service.mjs', 'start'],
        { LOG_LEVEL: 'info', ...place.env, ...fleet },
        '/health',
      )
    : await startMindService(place, fleet);
  client = new Client(server.url);
  const commander = new Client(server.url);
  const pollers = new Pollers(client);
  await pollers.hold(computers);
  await sleep(1000);
  // A warm-up (connections opened, code paths compiled), then the measured run.
  await timeDispatch(commander, pollers, computers.slice(0, 50), mind.mindKey, 100);
  await sleep(500);

  if (process.env.PROFILE_PIN) {
    // PostgreSQL's backends of this database on core 1, the server and this process on core 0.
    const backends = psql('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()').split('\n');
    for (const pid of backends) execFileSync('taskset', ['-cp', '1', pid], { stdio: 'ignore' });
    for (const pid of [server.pid, process.pid]) execFileSync('taskset', ['-acp', '0', String(pid)], { stdio: 'ignore' });
    console.log(`pinned: ${backends.length} backends on core 1; server and bench on core 0`);
  }
  psql(`select pg_stat_statements_reset(0, ${dbid}::oid, 0)`);
  const serverCpu0 = cpuMs(server.pid);
  const benchCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const queueTimes: number[] = [];
  const latencies = await timeDispatch(commander, pollers, computers.slice(50), mind.mindKey, commands, queueTimes);
  const wall = performance.now() - t0;
  const serverCpu = cpuMs(server.pid) - serverCpu0;
  const benchCpu = process.cpuUsage(benchCpu0);
  await sleep(300);
  const stats = psql(
    `select calls, round(total_exec_time::numeric, 1), regexp_replace(left(query, 110), '\\s+', ' ', 'g') from pg_stat_statements where dbid = ${dbid} order by calls desc, total_exec_time desc`,
  );
  pollers.stop();
  commander.close();

  const sorted = sortNumbers(latencies);
  const rows = stats ? stats.split('\n').map((line) => line.split('\t')) : [];
  const calls = rows.reduce((n, [c]) => n + Number(c), 0);
  const execMs = rows.reduce((n, [, t]) => n + Number(t), 0);
  console.log(`${commands} commands, ${polls} polls held: p50 ${ms(percentile(sorted, 50))}, p99 ${ms(percentile(sorted, 99))}`);
  console.log(`queue request answered: p50 ${ms(percentile(sortNumbers(queueTimes), 50))}`);
  console.log(`per command: ${(calls / commands).toFixed(2)} statements, PostgreSQL exec ${(execMs / commands).toFixed(3)} ms,`);
  console.log(
    `  server CPU ${(serverCpu / commands).toFixed(2)} ms, bench CPU ${((benchCpu.user + benchCpu.system) / 1000 / commands).toFixed(2)} ms, wall ${(wall / commands).toFixed(2)} ms`,
  );
  console.log('\ncalls per command | exec ms per command | statement');
  for (const [c, t, q] of rows)
    console.log(`${(Number(c) / commands).toFixed(2).padStart(6)} | ${(Number(t) / commands).toFixed(3).padStart(7)} | ${q}`);
} finally {
  client.close();
  await server.stop();
  await place.remove();
}
