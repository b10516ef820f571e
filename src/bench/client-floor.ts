/**
 * `npm run bench`: goodput beside the floor (floor-client.ts: raw sockets, a byte
 * scan, nothing else) against the same simulator in its own process, at 1 to
 * 4,096 streams, with the simulator's tokens on each stream's own cadence
 * (independent) and in one engine-wide step (batched, as vLLM). Every client's
 * TTFT is set beside the server's own per request (its log, joined on the
 * request id), the initial burst (the first C sends, all at once) apart from the
 * steady state; TPOT against the schedule. goodput runs with one thread and with
 * its default threads. The judgement printed for each level: goodput's steady
 * TTFT p50 error within 1.5× the floor's (or 2 ms of it) and TPOT within 1 %,
 * or else goodput marked the level client-bound itself; and a TPOT more than 5 %
 * above the schedule never passes unflagged (the exit code says so).
 *
 * BENCH_FLOOR_LEVELS (default 1,64,256,1024,4096) and BENCH_FLOOR_MODES
 * (independent,batched) narrow it.
 */
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { tpotMs, ttftMs } from '../core/index.js';
import { monotonicNs } from '../client/index.js';
import { spawnSimProcess } from '../sim/index.js';
import { floorChatBody, floorTpotMs, pct, scheduleFlags, sweepLevel, writeTable } from './bench-parts.js';
import { runFloorLevel } from './floor-client.js';
import { clientMinusServer, serverTtfts } from './server-log.js';

const PREFILL_MS = 50;
const STEP_MS = 40;
const OUTPUT = 144;
const LEVELS = (process.env.BENCH_FLOOR_LEVELS ?? '1,64,256,1024,4096').split(',').map(Number);
const MODES = (process.env.BENCH_FLOOR_MODES ?? 'independent,batched').split(',');
const SIM_FLAGS = scheduleFlags({ prefillMs: PREFILL_MS, stepMs: STEP_MS, maxBatch: 8192, kvCacheTokens: 1_000_000_000, natural: [48, OUTPUT] });

/** What one client measured at one level, reduced to the figures compared. */
interface Measured {
  client: string;
  /** Client − server TTFT per request, ms: burst (first C sends) and steady. */
  burst: number[];
  steady: number[];
  tpot: number[];
  cpuPct: number;
  bound: string | null;
  failed: number;
}

interface Row {
  id: string | undefined;
  sendNs: number;
  ttftMs: number | null;
  tpotMs: number | null;
}

function reduce(client: string, rows: Row[], logPath: string, c: number, cpuPct: number, bound: string | null, failed: number): Measured {
  const server = serverTtfts(logPath);
  const sorted = [...rows].sort((a, b) => a.sendNs - b.sendNs);
  return {
    client,
    burst: clientMinusServer(sorted.slice(0, c), server),
    steady: clientMinusServer(sorted.slice(c), server),
    tpot: sorted.flatMap((r) => (r.tpotMs === null ? [] : [r.tpotMs])),
    cpuPct,
    bound,
    failed,
  };
}

const requestsAt = (c: number) => Math.max(16, 3 * c);

async function floorRun(url: string, log: string, c: number): Promise<Measured> {
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi';
  const level = await runFloorLevel(url, {
    streams: c,
    requests: requestsAt(c),
    clock: monotonicNs,
    body: (i) => floorChatBody(`f${i} ${words}`, OUTPUT),
  });
  const rows = level.records.map((r) => ({
    id: r.id,
    sendNs: r.sendNs,
    ttftMs: r.firstTokenNs === null ? null : (r.firstTokenNs - r.sendNs) / 1e6,
    tpotMs: floorTpotMs(r),
  }));
  return reduce('floor', rows, log, c, level.cpuPct, null, requestsAt(c) - level.records.filter((r) => r.ok).length);
}

async function goodputRun(url: string, log: string, c: number, threads: number | 'auto'): Promise<Measured> {
  const { level: l, records } = await sweepLevel(
    {
      url,
      levels: [c],
      outputTokens: OUTPUT,
      forceLength: false,
      promptTokens: 16,
      requestsPerLevel: requestsAt(c),
      warmup: 1,
      clientThreads: threads,
      serverMetrics: false,
      gpuSource: 'none',
    },
    `goodput produced no level at ${c}`,
  );
  const rows = records.filter((r) => !r.warmup).map((r) => ({ id: r.requestId, sendNs: r.sendNs, ttftMs: ttftMs(r), tpotMs: tpotMs(r) }));
  const n = l.shares?.length ?? 1;
  return reduce(
    `goodput ${n} thread${n === 1 ? '' : 's'}`,
    rows,
    log,
    c,
    l.clientBound.clientCpuPct ?? 0,
    l.clientBound.bound ? l.clientBound.reason : null,
    l.failed,
  );
}

const p = pct;
const f2 = (x: number | null) => (x === null ? '—' : x.toFixed(2));

async function main() {
  const logDir = mkdtempSync(join(tmpdir(), 'goodput-bench-floor-'));
  const header = [
    'mode',
    'streams',
    'client',
    'burst TTFT err p50/p99 ms',
    'steady TTFT err p50/p99 ms',
    '× floor (steady p50)',
    'TPOT p50 err',
    'client busy %',
    'client-bound',
    'verdict',
  ];
  const table: string[][] = [header];
  let unflagged = 0;
  const threads: Array<number | 'auto'> = availableParallelism() > 1 ? [1, 'auto'] : [1];
  for (const mode of MODES) {
    for (const c of LEVELS) {
      let floor: Measured | null = null;
      // One stream is one thread whatever is asked: the default run would repeat the 1-thread one.
      for (const client of ['floor', ...(c === 1 ? [1] : threads)] as const) {
        const log = join(logDir, `${mode}-c${c}-${client}.jsonl`);
        const sim = await spawnSimProcess([...SIM_FLAGS, '--step-timing', mode, '--request-log', log]);
        let m: Measured;
        try {
          m = client === 'floor' ? await floorRun(sim.url, log, c) : await goodputRun(sim.url, log, c, client);
        } finally {
          await sim.stop();
        }
        const steady = p(m.steady, 50) ?? p(m.burst, 50);
        const tpot = p(m.tpot, 50);
        const tpotErr = tpot === null ? null : (tpot - STEP_MS) / STEP_MS;
        let ratio = '—';
        let verdict = '';
        if (client === 'floor') floor = m;
        else if (floor !== null && steady !== null) {
          const floorSteady = p(floor.steady, 50) ?? p(floor.burst, 50) ?? 0;
          ratio = floorSteady > 0 ? `${(steady / floorSteady).toFixed(2)}×` : '—';
          const close = steady <= 1.5 * floorSteady || steady - floorSteady <= 2;
          const tpotOk = tpotErr !== null && Math.abs(tpotErr) <= 0.01;
          verdict = close && tpotOk ? 'met' : m.bound !== null ? 'missed, flagged client-bound' : 'MISSED, not flagged';
          // The rule that must never break: TPOT more than 5 % over what the server paces, unflagged.
          if (tpotErr !== null && tpotErr > 0.05 && m.bound === null) {
            unflagged++;
            verdict += '; TPOT >5 % UNFLAGGED';
          }
        }
        table.push([
          mode,
          String(c),
          m.client,
          `${f2(p(m.burst, 50))}/${f2(p(m.burst, 99))}`,
          `${f2(p(m.steady, 50))}/${f2(p(m.steady, 99))}`,
          ratio,
          tpotErr === null ? '—' : `${(tpotErr * 100).toFixed(2)}%`,
          m.cpuPct.toFixed(0),
          m.bound === null ? (client === 'floor' ? '—' : 'no') : `yes: ${m.bound}`,
          `${verdict}${m.failed > 0 ? ` (${m.failed} failed)` : ''}`,
        ]);
        process.stderr.write(`${table.at(-1)?.join(' | ')}\n`);
      }
    }
  }
  process.stdout.write(
    `\nclient vs floor — schedule: TTFT ${PREFILL_MS} ms, TPOT ${STEP_MS} ms, natural outputs 48–${OUTPUT} tokens; TTFT error = client − server per request (the simulator's log);\n` +
      "busy % = the floor process's CPU, goodput's busiest sending loop (event-loop utilisation)\n",
  );
  writeTable(table);
  if (unflagged > 0) {
    process.stdout.write(`${unflagged} level(s) had TPOT more than 5 % above the schedule without goodput marking them client-bound\n`);
    process.exitCode = 1;
  }
}

await main();
