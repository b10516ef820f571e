/**
 * `npm run soak [-- --minutes N]`: steady load against the simulator (in its
 * own process) for N minutes (default 20), sweep after sweep through the whole
 * path (preflight, detection, client, summary), each sweep's records dropped
 * when it ends. Heap and RSS are sampled (after a forced GC when node runs with
 * --expose-gc) into a JSON result file, and two checks decide the exit code:
 * both stay flat within 10 % between the early and the late part of the run,
 * and no socket, timer or other handle is left behind (active resources
 * counted by type before the first sweep and after the last).
 * Not a test: it takes minutes and judges wall-clock behaviour.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { runSweep } from '../runner/index.js';
import { spawnSimProcess } from '../sim/index.js';

const MiB = 1024 * 1024;
/** Largest growth, early part to late part, that still counts as flat. */
const FLAT_PCT = 10;

interface Sample {
  atS: number;
  heapMiB: number;
  rssMiB: number;
  requests: number;
  resources: number;
}

function usage(): never {
  process.stderr.write('usage: npm run soak -- [--minutes N] [--concurrency C] [--sample-s S] [--out FILE]\n');
  process.exit(2);
}

function positive(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) usage();
  return n;
}

/** Active handles and requests (sockets, timers, child pipes…) counted by type. */
function resources(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of process.getActiveResourcesInfo()) out[r] = (out[r] ?? 0) + 1;
  return out;
}

const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

function sample(startMs: number, requests: number): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { atS: (performance.now() - startMs) / 1000, heapMiB: m.heapUsed / MiB, rssMiB: m.rss / MiB, requests, resources: total(resources()) };
}

/** Mean of the early third against the late third of the samples after warm-up (the first sixth). */
function flatness(samples: readonly Sample[], pick: (s: Sample) => number) {
  const settled = samples.slice(Math.floor(samples.length / 6));
  const third = Math.max(1, Math.floor(settled.length / 3));
  const avg = (xs: readonly Sample[]) => xs.reduce((a, s) => a + pick(s), 0) / xs.length;
  const early = avg(settled.slice(0, third));
  const late = avg(settled.slice(-third));
  const growthPct = ((late - early) / early) * 100;
  return { earlyMiB: early, lateMiB: late, growthPct, maxMiB: Math.max(...samples.map(pick)), flat: growthPct <= FLAT_PCT };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { minutes: { type: 'string' }, concurrency: { type: 'string' }, 'sample-s': { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  const minutes = positive(values.minutes, 20);
  const concurrency = Math.round(positive(values.concurrency, 32));
  const sampleMs = positive(values['sample-s'], Math.min(10, (minutes * 60) / 24)) * 1000;
  const out = values.out ?? 'soak-result.json';

  const sim = await spawnSimProcess([
    '--prefill-base-ms',
    '5',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '5',
    '--natural-min',
    '16',
    '--natural-max',
    '64',
  ]);
  let requests = 0;
  let failed = 0;
  let sweeps = 0;
  const startedAt = new Date().toISOString();
  const before = resources();
  const startMs = performance.now();
  const endMs = startMs + minutes * 60_000;
  const samples: Sample[] = [sample(startMs, 0)];
  const timer = setInterval(() => samples.push(sample(startMs, requests)), sampleMs);
  try {
    while (performance.now() < endMs) {
      const result = await runSweep({
        url: sim.url,
        levels: [concurrency],
        requestsPerLevel: 8 * concurrency,
        warmup: 1,
        outputTokens: 64,
        forceLength: false,
        promptTokens: 64,
        gpuSource: 'none',
        serverMetrics: false,
        clientBudgetMs: 1000,
      });
      sweeps++;
      for (const l of result.levels) {
        requests += l.requests;
        failed += l.failed;
      }
    }
  } finally {
    clearInterval(timer);
    await sim.stop();
  }
  samples.push(sample(startMs, requests));
  // Closed sockets leave the resource list on the next turns of the loop.
  await new Promise((r) => setTimeout(r, 1000));
  const after = resources();
  const leaked = Object.fromEntries(
    [...new Set([...Object.keys(before), ...Object.keys(after)])].map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)] as const).filter(([, d]) => d > 0),
  );
  const heap = flatness(samples, (s) => s.heapMiB);
  const rss = flatness(samples, (s) => s.rssMiB);
  const ok = heap.flat && rss.flat && Object.keys(leaked).length === 0;
  const result = {
    startedAt,
    minutes,
    concurrency,
    sweeps,
    requests,
    failed,
    gcForced: typeof (globalThis as { gc?: unknown }).gc === 'function',
    flatLimitPct: FLAT_PCT,
    heap,
    rss,
    resources: { before, after, leaked },
    verdict: ok ? 'pass' : 'fail',
    samples,
  };
  await writeFile(out, JSON.stringify(result, null, 2) + '\n');
  const f = (x: number) => x.toFixed(1);
  process.stdout.write(
    [
      `soak: ${minutes} min at concurrency ${concurrency}: ${sweeps} sweeps, ${requests} requests, ${failed} failed`,
      `heap MiB early ${f(heap.earlyMiB)} → late ${f(heap.lateMiB)} (${f(heap.growthPct)} %, max ${f(heap.maxMiB)})${heap.flat ? '' : ' NOT FLAT'}`,
      `RSS MiB early ${f(rss.earlyMiB)} → late ${f(rss.lateMiB)} (${f(rss.growthPct)} %, max ${f(rss.maxMiB)})${rss.flat ? '' : ' NOT FLAT'}`,
      `active resources before ${total(before)}, after ${total(after)}${Object.keys(leaked).length === 0 ? ', none leaked' : `, LEAKED ${JSON.stringify(leaked)}`}`,
      `${result.verdict}; samples in ${out}`,
    ].join('\n') + '\n',
  );
  return ok ? 0 : 1;
}

process.exitCode = await main();
