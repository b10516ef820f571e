/**
 * `npm run bench`: bursts at the floor. In a closed loop of equal-length streams
 * every round starts together, so every request is a burst request. Against a
 * stub-like simulator (independent streams, first token 20 ms after the request
 * is read, 256 tokens at a fixed cadence, 4 × C requests per level) the floor
 * (floor-client.ts) and goodput with its default threads run one after the
 * other, each against a fresh simulator, client pinned to CPU 0 and simulator
 * to CPU 1. Compared: the whole level's TTFT p50 minus the stub's 20 ms, and
 * TPOT against the cadence. The bench exits non-zero when goodput's TTFT p50
 * error exceeds max(1.5 × the floor's, the floor's + 2 ms) on a level it did not
 * flag client-bound, or its TPOT is more than 1 % off.
 *
 * BENCH_BURST_LEVELS (default 256x20,500x10,1024x40: streams × cadence ms) narrows
 * it. BENCH_SEND_TRACE=1 also prints where each send's time went (burst-trace.ts);
 * BENCH_TRACEPARENT=off sends no traceparent (its cost is the difference).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tpotMs, ttftMs } from '../core/index.js';
import { monotonicNs } from '../client/index.js';
import { spawnSimProcess } from '../sim/index.js';
import { floorChatBody, floorTpotMs, pct, scheduleFlags, sweepLevel, writeTable } from './bench-parts.js';
import { breakdownLines } from './burst-trace.js';
import { runFloorLevel } from './floor-client.js';
import { pin } from './pin.js';

const FIRST_TOKEN_MS = 20;
const OUTPUT = 256;
const LEVELS = (process.env.BENCH_BURST_LEVELS ?? '256x20,500x10,1024x40').split(',').map((l) => {
  const [c, cadence] = l.split('x').map(Number);
  if (!Number.isInteger(c) || !(Number(cadence) > 0)) throw new Error(`BENCH_BURST_LEVELS: "${l}" is not STREAMSxCADENCE_MS`);
  return { c: c as number, cadenceMs: cadence as number };
});
const TRACE = process.env.BENCH_SEND_TRACE === '1';
// The per-request traceparent's cost: the same levels with it turned off.
const NO_TRACEPARENT = process.env.BENCH_TRACEPARENT === 'off';
// Read by the client (threads take a copy of the environment when they start).
if (TRACE) process.env.GOODPUT_SEND_TRACE = '1';

const simFlags = (cadenceMs: number, log: string) => [
  ...scheduleFlags({ prefillMs: FIRST_TOKEN_MS, stepMs: cadenceMs, maxBatch: 8192, kvCacheTokens: 1_000_000_000, natural: [OUTPUT, OUTPUT] }),
  ...['--step-timing', 'independent', '--request-log', log],
];

interface Measured {
  ttft: number[];
  tpot: number[];
  lateMs: number[];
  cpuPct: number;
  bound: string | null;
  failed: number;
  breakdown: string[];
}

async function floorRun(url: string, c: number): Promise<Measured> {
  const level = await runFloorLevel(url, {
    streams: c,
    requests: 4 * c,
    clock: monotonicNs,
    body: (i) => floorChatBody(`f${i} alpha beta gamma delta epsilon zeta eta theta`, OUTPUT),
  });
  const ok = level.records.filter((r) => r.ok);
  return {
    ttft: ok.flatMap((r) => (r.firstTokenNs === null ? [] : [(r.firstTokenNs - r.sendNs) / 1e6])),
    tpot: ok.flatMap((r) => floorTpotMs(r) ?? []),
    lateMs: level.records.map((r) => (r.writtenNs - r.targetNs) / 1e6),
    cpuPct: level.cpuPct,
    bound: null,
    failed: 4 * c - ok.length,
    breakdown: [],
  };
}

async function goodputRun(url: string, c: number): Promise<Measured> {
  const { level: l, records } = await sweepLevel(
    {
      url,
      levels: [c],
      outputTokens: OUTPUT,
      forceLength: false,
      promptTokens: 16,
      requestsPerLevel: 4 * c,
      warmup: 1,
      serverMetrics: false,
      gpuSource: 'none',
      traceparent: !NO_TRACEPARENT,
    },
    `goodput produced no level at ${c}`,
  );
  const measured = records.filter((r) => !r.warmup);
  return {
    ttft: measured.flatMap((r) => ttftMs(r) ?? []),
    tpot: measured.flatMap((r) => tpotMs(r) ?? []),
    lateMs: measured.flatMap((r) => (r.writtenNs === undefined ? [] : [(r.writtenNs - r.targetSendNs) / 1e6])),
    cpuPct: l.clientBound.clientCpuPct ?? 0,
    bound: l.clientBound.bound ? l.clientBound.reason : null,
    failed: l.failed,
    breakdown: TRACE ? breakdownLines(measured) : [],
  };
}

const p = pct;
const f = (x: number | null, d = 2) => (x === null ? '—' : x.toFixed(d));

async function main() {
  const logDir = mkdtempSync(join(tmpdir(), 'goodput-bench-burst-'));
  const header = [
    'streams × cadence',
    'client',
    'TTFT p50 err ms',
    'TTFT p99 err ms',
    '× floor',
    'TPOT p50 err',
    'send lateness p50/p99 ms',
    'busy %',
    'client-bound',
    'verdict',
  ];
  const table: string[][] = [header];
  let missed = 0;
  let pinned = '';
  for (const { c, cadenceMs } of LEVELS) {
    let floorErr: number | null = null;
    for (const client of ['floor', 'goodput'] as const) {
      const sim = await spawnSimProcess(simFlags(cadenceMs, join(logDir, `c${c}x${cadenceMs}-${client}.jsonl`)));
      let m: Measured;
      try {
        pinned = pin(sim.child.pid);
        m = client === 'floor' ? await floorRun(sim.url, c) : await goodputRun(sim.url, c);
      } finally {
        await sim.stop();
      }
      const ttftP50 = p(m.ttft, 50);
      const err = ttftP50 === null ? null : ttftP50 - FIRST_TOKEN_MS;
      const tpot = p(m.tpot, 50);
      const tpotErr = tpot === null ? null : (tpot - cadenceMs) / cadenceMs;
      let ratio = '—';
      let verdict = '';
      if (client === 'floor') floorErr = err;
      else if (floorErr !== null && err !== null) {
        ratio = floorErr > 0 ? `${(err / floorErr).toFixed(2)}×` : '—';
        const close = err <= Math.max(1.5 * floorErr, floorErr + 2);
        const tpotOk = tpotErr !== null && Math.abs(tpotErr) <= 0.01;
        if (!tpotOk) {
          missed++;
          verdict = 'MISSED: TPOT more than 1 % off';
        } else if (close) verdict = 'met';
        else if (m.bound !== null) verdict = 'over, flagged client-bound';
        else {
          missed++;
          verdict = 'MISSED, not flagged';
        }
      }
      table.push([
        `${c} × ${cadenceMs} ms`,
        client,
        f(err),
        f(p(m.ttft, 99) === null ? null : (p(m.ttft, 99) as number) - FIRST_TOKEN_MS),
        ratio,
        tpotErr === null ? '—' : `${(tpotErr * 100).toFixed(2)}%`,
        `${f(p(m.lateMs, 50))}/${f(p(m.lateMs, 99))}`,
        m.cpuPct.toFixed(0),
        m.bound === null ? (client === 'floor' ? '—' : 'no') : `yes: ${m.bound}`,
        `${verdict}${m.failed > 0 ? ` (${m.failed} failed)` : ''}`,
      ]);
      process.stderr.write(`${table.at(-1)?.join(' | ')}\n`);
      for (const line of m.breakdown) process.stdout.write(`  ${c} × ${cadenceMs} ms ${line}\n`);
    }
  }
  process.stdout.write(
    `\nbursts at the floor — independent streams, first token ${FIRST_TOKEN_MS} ms after the request is read, ${OUTPUT} tokens, 4 × C requests; ${pinned}\n` +
      "TTFT error = the whole level's TTFT minus the stub's 20 ms; send lateness = last request byte written minus slot freed (or level start); busy % = the floor process's CPU, goodput's busiest sending loop\n",
  );
  writeTable(table);
  if (missed > 0) {
    process.stdout.write(
      `${missed} level(s) missed: goodput's TTFT p50 error over max(1.5 × the floor's, the floor's + 2 ms) unflagged, or TPOT more than 1 % off\n`,
    );
    process.exitCode = 1;
  }
}

await main();
