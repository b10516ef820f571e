/**
 * `npm run bench`, start-up section: wall time from spawn to exit of the
 * commands a user types first, each run several times (median and max), with
 * the targets they are held to on a quiet machine. `runs list` opens an
 * embedded store of its own, with no `goodput serve` running.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/goodput.js', import.meta.url));
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);
const home = mkdtempSync(join(tmpdir(), 'goodput-bench-startup-'));

function timeOnce(args: readonly string[]): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: 'ignore', env: { ...process.env, GOODPUT_HOME: home } });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(performance.now() - t0);
      else reject(new Error(`goodput ${args.join(' ')} exited ${code}`));
    });
  });
}

const cases: Array<{ args: string[]; targetMs: number }> = [
  { args: ['--version'], targetMs: 250 },
  { args: ['--help'], targetMs: 250 },
  { args: ['runs', 'list'], targetMs: 1000 },
];

// The first `runs list` creates the store: not what a user waits for every time.
await timeOnce(['runs', 'list']);
console.log(`start-up, ${RUNS} runs each (ms)`);
console.log('command            median     max  target');
let over = 0;
for (const c of cases) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timeOnce(c.args));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  if (median > c.targetMs) over++;
  console.log(
    `${`goodput ${c.args.join(' ')}`.padEnd(18)} ${median.toFixed(0).padStart(6)}  ${(times.at(-1) as number).toFixed(0).padStart(6)}  ${String(c.targetMs).padStart(6)}${median > c.targetMs ? '  over target' : ''}`,
  );
}
process.exitCode = over > 0 ? 1 : 0;
