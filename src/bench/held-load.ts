/**
 * `npm run bench`: the load a user asks for, held, measured as users run it.
 * For each level (streams × cadence) an independent stub (stub-server.ts: not
 * the simulator, its own clock) is started on CPU 1, then a client on CPU 0 —
 * first the floor (floor-process.ts: raw sockets), then `goodput sweep` as a
 * user runs it (the CLI, its default threads and warm-up) — each against a
 * fresh stub, 4 × C requests of 256 tokens. From the stub's own log: its TTFT
 * p50 while that client ran, its TPOT p50, and the requests it saw open as
 * each one arrived (median and minimum at steady state: after the first C
 * arrivals of the level, warm-ups left out). A client's overhead is its TTFT
 * p50 minus the stub's.
 *
 * It exits non-zero when goodput's overhead exceeds max(1.5 × the floor's, the
 * floor's + 2 ms) at up to 256 streams or 2 × the floor's above (unless the
 * level was flagged client-bound), its TPOT p50 is more than 0.1 % from the
 * stub's, or the stub saw fewer than 97 % of C open at the median.
 * BENCH_HELD_LEVELS (default 256x20,1024x40) narrows it; BENCH_GOODPUT names another build's bin/goodput.js.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { pct, writeTable } from './bench-parts.js';
import type { StubRecord } from './stub-server.js';

const FIRST_TOKEN_MS = 20;
const OUTPUT = 256;
const LEVELS = (process.env.BENCH_HELD_LEVELS ?? '256x20,1024x40').split(',').map((l) => {
  const [c, cadence] = l.split('x').map(Number);
  if (!Number.isInteger(c) || !(Number(cadence) > 0)) throw new Error(`BENCH_HELD_LEVELS: "${l}" is not STREAMSxCADENCE_MS`);
  return { c: c as number, cadenceMs: cadence as number };
});
const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));
// BENCH_GOODPUT: another build's bin/goodput.js, to set two versions side by side on the same stub.
const GOODPUT = process.env.BENCH_GOODPUT ?? fileURLToPath(new URL('../../bin/goodput.js', import.meta.url));
const PINNED = process.platform === 'linux' && availableParallelism() >= 2;
/** `cmd` pinned to `cpu` where the machine has two cores, else as is. */
const onCpu = (cpu: number, cmd: string[]): [string, string[]] => (PINNED ? ['taskset', ['-c', String(cpu), ...cmd]] : [cmd[0] as string, cmd.slice(1)]);

async function startStub(cadenceMs: number): Promise<{ url: string; child: ChildProcess }> {
  const [bin, args] = onCpu(1, [
    process.execPath,
    here('./stub-server.js'),
    '--first-token-ms',
    String(FIRST_TOKEN_MS),
    '--cadence-ms',
    String(cadenceMs),
    '--tokens',
    String(OUTPUT),
  ]);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  for await (const line of createInterface({ input: child.stdout as NodeJS.ReadableStream })) {
    const m = /^listening (\S+)$/.exec(line);
    if (m) return { url: m[1] as string, child };
  }
  throw new Error('the stub exited before it listened');
}

/** Runs `cmd` on CPU 0 to its end; its stdout. */
function run(cmd: string[]): Promise<string> {
  const [bin, args] = onCpu(0, cmd);
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd.slice(0, 3).join(' ')} exited ${code}`)))),
  );
}

interface ClientFigures {
  ttftP50: number | null;
  tpotP50: number | null;
  failed: number;
  bound: string | null;
  /** What goodput says it kept open (its levels[].inFlight), beside what the stub saw. */
  held?: string;
}

async function floor(url: string, c: number): Promise<ClientFigures> {
  const r = JSON.parse(await run([process.execPath, here('./floor-process.js'), url, String(c), String(4 * c), String(OUTPUT)])) as ClientFigures;
  return { ...r, bound: null };
}

async function goodput(url: string, c: number, dir: string): Promise<ClientFigures> {
  const out = join(dir, `goodput-${c}.json`);
  await run([
    ...[process.execPath, GOODPUT, 'sweep', '--url', url, '--model', 'stub', '--levels', String(c), '--requests-per-level', String(4 * c)],
    ...['--output-tokens', String(OUTPUT), '--prompt-tokens', '16', '--no-server-metrics', '--gpu-source', 'none', '--no-save', '--json', out],
  ]);
  type Level = {
    ttftMs: { p50: number } | null;
    tpotMs: { p50: number } | null;
    failed: number;
    clientBound: { bound: boolean; reason?: string };
    inFlight?: { median: number; min: number };
  };
  const level = (JSON.parse(readFileSync(out, 'utf8')) as { levels: Level[] }).levels[0];
  if (!level) throw new Error(`goodput produced no level at ${c}`);
  return {
    ttftP50: level.ttftMs?.p50 ?? null,
    tpotP50: level.tpotMs?.p50 ?? null,
    failed: level.failed,
    bound: level.clientBound.bound ? (level.clientBound.reason ?? 'yes') : null,
    ...(level.inFlight === undefined ? {} : { held: `${level.inFlight.median}/${level.inFlight.min}` }),
  };
}

/**
 * The requests open on average over [from, to], weighted by time: the load the stub carried, where the median
 * at arrivals samples the instants a slot changes hands (when the count is lowest by construction).
 */
function timeWeightedOpen(log: StubRecord[], from: number, to: number): number | null {
  if (!(to > from)) return null;
  const steps = log.flatMap((r) => [
    { at: r.arriveMs, d: 1 },
    { at: r.endMs ?? Infinity, d: -1 },
  ]);
  steps.sort((a, b) => a.at - b.at || a.d - b.d);
  let open = 0;
  let area = 0;
  let last = from;
  for (const { at, d } of steps) {
    if (at > from) {
      const t = Math.min(at, to);
      area += open * (t - last);
      last = t;
      if (at >= to) break;
    }
    open += d;
  }
  return area / (to - from);
}

/** The stub's figures for one client's run: the level's 4 × C requests (earlier arrivals were warm-ups). */
function stubFigures(log: StubRecord[], c: number) {
  const level = log.sort((a, b) => a.arriveMs - b.arriveMs).slice(-4 * c);
  const steady = level.slice(c).map((r) => r.inFlight);
  // The i-th answer to end frees the slot the (C + i)-th arrival fills, whichever connection it comes on.
  const ends = level.flatMap((r) => (r.endMs === null ? [] : [r.endMs])).sort((a, b) => a - b);
  const gaps = level.slice(c).map((r, i) => r.arriveMs - (ends[i] as number));
  const ended = level.filter((r) => r.firstMs !== null && r.lastMs !== null && r.tokens > 1);
  return {
    timeMean: timeWeightedOpen(log, (level[c - 1] as StubRecord).arriveMs, (level.at(-1) as StubRecord).arriveMs),
    ttftP50: pct(
      ended.map((r) => (r.firstMs as number) - r.arriveMs),
      50,
    ),
    tpotP50: pct(
      ended.map((r) => ((r.lastMs as number) - (r.firstMs as number)) / (r.tokens - 1)),
      50,
    ),
    inFlightP50: pct(steady, 50),
    inFlightMin: steady.length > 0 ? Math.min(...steady) : null,
    gapP50: pct(gaps, 50),
    gapP99: pct(gaps, 99),
  };
}

const f = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d));

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'goodput-bench-held-'));
  const table: string[][] = [
    [
      'streams × cadence',
      'client',
      'overhead ms',
      '× floor',
      'TPOT err',
      'in flight p50/min',
      'time mean',
      'its own p50/min',
      'slot gap p50/p99 ms',
      'verdict',
    ],
  ];
  let missed = 0;
  for (const { c, cadenceMs } of LEVELS) {
    let floorOverhead: number | null = null;
    let floorInFlight: number | null = null;
    for (const client of ['floor', 'goodput'] as const) {
      const stub = await startStub(cadenceMs);
      let m: ClientFigures;
      let s: ReturnType<typeof stubFigures>;
      try {
        m = client === 'floor' ? await floor(stub.url, c) : await goodput(stub.url, c, dir);
        s = stubFigures(((await (await fetch(`${stub.url}/stub/log`)).json()) as { log: StubRecord[] }).log, c);
      } finally {
        stub.child.kill();
      }
      const overhead = m.ttftP50 === null || s.ttftP50 === null ? null : m.ttftP50 - s.ttftP50;
      const tpotErr = m.tpotP50 === null || s.tpotP50 === null ? null : (m.tpotP50 - s.tpotP50) / s.tpotP50;
      let ratio = '—';
      const verdicts: string[] = [];
      if (client === 'floor') {
        floorOverhead = overhead;
        floorInFlight = s.inFlightP50;
      } else if (floorOverhead !== null && overhead !== null) {
        ratio = floorOverhead > 0 ? `${(overhead / floorOverhead).toFixed(2)}×` : '—';
        const allowed = c <= 256 ? Math.max(1.5 * floorOverhead, floorOverhead + 2) : 2 * floorOverhead;
        if (overhead > allowed) verdicts.push(m.bound === null ? `MISSED: overhead over ${allowed.toFixed(1)} ms, not flagged` : 'over, flagged client-bound');
        if (tpotErr === null || Math.abs(tpotErr) > 0.001) verdicts.push('MISSED: TPOT more than 0.1 % off');
        if (s.inFlightP50 === null || s.inFlightP50 < 0.97 * c) verdicts.push(`MISSED: in flight under 97 % of ${c}`);
        missed += verdicts.filter((v) => v.startsWith('MISSED')).length;
        if (verdicts.length === 0) verdicts.push('met');
      }
      table.push([
        `${c} × ${cadenceMs} ms`,
        client,
        f(overhead),
        ratio,
        tpotErr === null ? '—' : `${(tpotErr * 100).toFixed(3)}%`,
        `${f(s.inFlightP50, 0)}/${f(s.inFlightMin, 0)}${client === 'goodput' && floorInFlight && s.inFlightP50 !== null ? ` (${((s.inFlightP50 / floorInFlight) * 100).toFixed(1)} % of the floor's)` : ''}`,
        f(s.timeMean, 1),
        m.held ?? '—',
        `${f(s.gapP50)}/${f(s.gapP99)}`,
        `${verdicts.join('; ')}${m.failed > 0 ? ` (${m.failed} failed)` : ''}`,
      ]);
      process.stderr.write(`${table.at(-1)?.join(' | ')}\n`);
    }
  }
  process.stdout.write(
    `\nheld load — an independent stub (first token ${FIRST_TOKEN_MS} ms after the request is read, ${OUTPUT} tokens, one per event), 4 × C requests; ` +
      `${PINNED ? 'clients pinned to CPU 0, the stub to CPU 1' : 'not pinned'}\n` +
      "overhead = the client's TTFT p50 minus the stub's own; in flight = the requests the stub saw open as each arrived, after the level's first C; time mean = the requests it had open on average from the C-th arrival to the last; its own = what the client says it kept open (goodput's levels[].inFlight); slot gap = the i-th answer's end to the (C + i)-th request's arrival, as the stub saw them\n",
  );
  writeTable(table);
  if (missed > 0) {
    process.stdout.write(`${missed} verdict(s) missed\n`);
    process.exitCode = 1;
  }
}

await main();
