/**
 * `npm run bench`: how true our timestamps stay as streams multiply. The
 * simulator runs in its own process with a known schedule (fixed prefill, fixed
 * decode step, no batching slowdown), and each level's measured TTFT and TPOT are
 * compared with it. Also printed: tokens/s handled, how busy our sending loop was and whether
 * the level marked itself client-bound.
 *
 * Output lengths are the simulator's natural lengths (not forced) so streams
 * finish at different moments and the arrivals do not come in synchronized waves.
 *
 * Per request, our TTFT is also set beside the server's own (its request log,
 * joined on X-Request-Id: first token written − request read): the p50 and p99
 * of that difference are what our client adds, free of any nominal schedule.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RequestRecord, mean, ttftMs } from '../core/index.js';
import { clientMinusServer, serverTtfts, spreadText } from './server-log.js';
import { spawnSimProcess } from '../sim/index.js';
import { scheduleFlags, sweepLevel } from './bench-parts.js';

const PREFILL_MS = 50;
const STEP_MS = 40;
const LEVELS = (process.env.BENCH_LEVELS ?? '1,64,256,1024').split(',').map(Number);

const pct = (measured: number | undefined, truth: number) => (measured === undefined ? '—' : `${(((measured - truth) / truth) * 100).toFixed(2)}%`);
const err = (measured: number | undefined, truth: number) => (measured === undefined ? '—' : (measured - truth).toFixed(2));

const SIM_FLAGS = scheduleFlags({ prefillMs: PREFILL_MS, stepMs: STEP_MS, maxBatch: 4096, kvCacheTokens: 100_000_000, natural: [48, 144] });

function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line ? Number(line.split(' ').pop()) : NaN;
}

interface SimLateness {
  p50Ms: number | null;
  p99Ms: number | null;
}

/**
 * Our TTFT minus the server's, per request joined on its id: p50/p99, ms (after the simulator
 * flushed its log), for the initial burst (the first C measured requests, sent at once) apart
 * from the steady state (every later request, sent as a slot frees), which a level mixes.
 */
function perRequestError(records: readonly RequestRecord[], logPath: string, c: number): string {
  const server = serverTtfts(logPath);
  const diffs = (rs: readonly RequestRecord[]) =>
    clientMinusServer(
      rs.map((r) => ({ id: r.requestId, ttftMs: ttftMs(r) })),
      server,
    );
  const measured = records.filter((r) => !r.warmup).sort((a, b) => a.sendNs - b.sendNs);
  return `burst ${spreadText(diffs(measured.slice(0, c)))} · steady ${spreadText(diffs(measured.slice(c)))}`;
}

async function main() {
  const rows: string[][] = [
    [
      'streams',
      'requests',
      'TTFT p50 err ms',
      'TTFT p50 err',
      'TTFT p99 err ms',
      'TPOT p50 err ms',
      'TPOT p50 err',
      'TPOT p95 err ms',
      'tok/s',
      'client busy %',
      'loop p99 ms',
      'ramp ms',
      'sim late p50/p99 ms',
      'TTFT client−server mean ms',
      'per request client−server p50/p99 ms',
      'client-bound',
    ],
  ];
  const logDir = mkdtempSync(join(tmpdir(), 'goodput-bench-log-'));
  for (const c of LEVELS) {
    // A fresh simulator per level, so its own write lateness is per level too.
    const log = join(logDir, `c${c}.jsonl`);
    const sim = await spawnSimProcess([...SIM_FLAGS, '--request-log', log]);
    let perRequest = '—';
    try {
      const { level: l, records } = await sweepLevel(
        { url: sim.url, levels: [c], outputTokens: 144, forceLength: false, promptTokens: 16, requestsPerLevel: Math.max(16, 3 * c), warmup: 1 },
        `level ${c} produced no result`,
      );
      const stats = (await (await fetch(`${sim.url}/sim/stats`)).json()) as { writeLateness: SimLateness };
      const late = stats.writeLateness;
      // The server's own TTFT (arrival → first write) from its /metrics, against ours (send → first byte read).
      const metrics = await (await fetch(`${sim.url}/metrics`)).text();
      const serverTtftMs =
        (metricValue(metrics, 'vllm:time_to_first_token_seconds_sum') / metricValue(metrics, 'vllm:time_to_first_token_seconds_count')) * 1000;
      const clientTtftMs = mean(records.flatMap((r) => ttftMs(r) ?? []));
      rows.push([
        String(c),
        String(l.requests),
        err(l.ttftMs?.p50, PREFILL_MS),
        pct(l.ttftMs?.p50, PREFILL_MS),
        err(l.ttftMs?.p99, PREFILL_MS),
        err(l.tpotMs?.p50, STEP_MS),
        pct(l.tpotMs?.p50, STEP_MS),
        err(l.tpotMs?.p95, STEP_MS),
        l.throughputTokS.toFixed(0),
        l.clientBound.clientCpuPct?.toFixed(0) ?? '—',
        l.clientBound.loopDelayMs?.p99.toFixed(2) ?? '—',
        l.clientBound.rampMs?.toFixed(1) ?? '—',
        `${late.p50Ms?.toFixed(2) ?? '—'}/${late.p99Ms?.toFixed(2) ?? '—'}`,
        clientTtftMs === null ? '—' : (clientTtftMs - serverTtftMs).toFixed(2),
        '',
        l.clientBound.bound ? `yes: ${l.clientBound.reason}` : 'no',
      ]);
      const row = rows.at(-1) as string[];
      await sim.stop();
      perRequest = perRequestError(records, log, c);
      row[row.length - 2] = perRequest;
      if (l.failed > 0) rows.push([`  ${l.failed} failed: ${l.failureExamples.join('; ')}`]);
    } finally {
      await sim.stop();
    }
  }
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  process.stdout.write(`schedule: TTFT ${PREFILL_MS} ms, TPOT ${STEP_MS} ms (simulator in its own process; "sim late" = its own write lateness)\n`);
  for (const r of rows) process.stdout.write(r.map((cell, i) => cell.padStart(widths[i] as number)).join('  ') + '\n');
}

await main();
