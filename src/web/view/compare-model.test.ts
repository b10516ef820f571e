/**
 * The comparison model and the Pareto view on literal runs: contract
 * differences first, levels aligned, differences with their bootstrap
 * interval and the one verdict rule, frontiers and the capacity answer.
 */
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { LevelResult, RequestRecord, RunInfo } from '../../core/index.js';
import { rec } from '../../test-support/records.js';
import { type CompareRun, capacityAt, compareRuns, contractDiffs, defaultTarget, frontier, gpuCount, paretoModel, paretoTable, renderPareto } from './index.js';

const RUN: RunInfo = {
  url: 'http://127.0.0.1:1',
  model: 'm',
  engine: null,
  endpoint: 'chat',
  outputTokens: 32,
  forceLength: true,
  promptTokens: 8,
  thinking: 'off',
  temperature: 0,
  seed: 1,
  levelsRequested: [1, 2, 4],
  levelsOrder: [1, 2, 4],
  requestsPerLevel: 8,
  warmupPerLevel: 1,
  hourlyCostUsd: 2,
  baselineRateUsdPer1M: null,
  gpuLabel: null,
  command: 'x',
  startedAt: '2026-01-01T00:00:00Z',
  endedAt: null,
  status: 'complete',
  stopReason: null,
  toolVersion: 't',
};

/** A level whose requests stream 32 tokens at `stepMs` per token (with a little seeded jitter), c requests at once. */
function level(c: number, stepMs: number, extra: Partial<LevelResult> = {}): { level: LevelResult; records: RequestRecord[] } {
  const records = Array.from({ length: 8 }, (_, i) => {
    const step = stepMs * (1 + ((i * 7) % 5) / 100);
    return rec({ concurrency: c, chunksMs: Array.from({ length: 32 }, (_, k) => 10 + k * step), outputTokens: 32 });
  });
  const perReq = 1000 / (stepMs * 1.02);
  const l = {
    concurrency: c,
    requests: 8,
    failed: 0,
    failures: {},
    failureExamples: [],
    invalid: false,
    invalidReason: null,
    durationMs: (8 / c) * 32 * stepMs,
    throughputTokS: perReq * c,
    perRequestTokS: { mean: perReq, p50: perReq },
    ttftMs: { p50: 10, p95: 10, p99: 10 },
    tpotMs: { p50: stepMs * 1.02, p95: stepMs * 1.04 },
    e2eMs: { p50: 10 + 31 * stepMs * 1.02, p95: 10 + 31 * stepMs * 1.04 },
    clientBound: { bound: false, reason: null },
    gpuMemMiB: { available: false, source: 'not available', reason: 'x' },
    ...extra,
  } as unknown as LevelResult;
  return { level: l, records };
}

function run(label: string, stepMs: number, over: Partial<RunInfo> = {}): CompareRun {
  const lv = [1, 2, 4].map((c) => level(c, stepMs * (1 + c / 8)));
  return { label, run: { ...RUN, ...over }, levels: lv.map((x) => x.level), records: lv.flatMap((x) => x.records) };
}

describe('compareRuns', () => {
  it('aligns every run on the level axis, one column group per run, each figure with its statistic', () => {
    const runs = [run('run 1', 10), run('run 2', 5), run('run 3', 20)];
    const c = compareRuns(runs);
    expect(c.diffs).toEqual([]);
    expect(c.refused).toBeNull();
    expect(c.axis).toBe('Concurrency');
    expect(c.rows.map((r) => r.level)).toEqual([1, 2, 4]);
    expect(c.rows.every((r) => r.runs.length === 3 && r.runs.every((x) => x !== null))).toBe(true);
    expect(c.headers).toContain('TTFT p95 (ms)');
    expect(c.headers).toContain('Per-request tok/s (mean)');
    // Run 2 decodes twice as fast: better throughput and TPOT, intervals excluding zero; run 3 worse.
    const [two, three] = c.rows[0]?.differences as [NonNullable<(typeof c.rows)[0]['differences'][0]>, NonNullable<(typeof c.rows)[0]['differences'][0]>];
    const tpot2 = two.find((d) => d.metric === 'tpotP50');
    expect(tpot2?.difference.verdict).toBe('better');
    expect(tpot2?.difference.hi).toBeLessThan(0);
    expect(tpot2?.text).toMatch(/^−[\d.]+ ms \(−\d+(\.\d)? %\), 95 % interval −[\d.]+ to −[\d.]+ \(−\d+(\.\d)? % to −\d+(\.\d)? %\) over requests: better$/);
    expect(three.find((d) => d.metric === 'perRequest')?.difference.verdict).toBe('worse');
    // TTFT is the same 10 ms everywhere: the change rounds to zero, and no direction is named.
    expect(two.find((d) => d.metric === 'ttftP50')?.text).toMatch(
      /^±0\.0 ms(, 95 % interval .* over requests)?: no difference established \((the change rounds to zero|the interval includes zero)\)$/,
    );
  });

  it('lists contract differences first, and computes no differences when the workload differs', () => {
    const runs = [run('run 1', 10), run('run 2', 10, { outputTokens: 64, url: 'http://127.0.0.1:2' })];
    expect(contractDiffs(runs)).toEqual([
      { field: 'output tokens', values: ['32', '64'], workload: true, identity: false },
      { field: 'server', values: ['http://127.0.0.1:1', 'http://127.0.0.1:2'], workload: false, identity: false },
    ]);
    const c = compareRuns(runs);
    expect(c.refused).toMatch(/^The workloads differ \(output tokens: 32 \(run 1\) vs 64 \(run 2\)\), so no differences are computed/);
    expect(c.rows.every((r) => r.differences.every((d) => d === null))).toBe(true);
  });

  it('compares over runs when each side has 3: a 5 % faster set is better, the same configuration establishes nothing', () => {
    const set = (label: string, factor: number, jitter: number[]): CompareRun => {
      const base = run(label, 10);
      const scaled = (f: number) => base.levels.map((l) => ({ ...l, throughputTokS: l.throughputTokS * f }));
      return {
        ...base,
        records: undefined,
        levels: scaled(factor * (1 + (jitter[0] as number))),
        repeats: jitter.slice(1).map((j) => ({ levels: scaled(factor * (1 + j)) })),
      };
    };
    const a = set('set A', 1, [0.004, -0.006, 0.002]);
    const faster = compareRuns([a, set('set B', 1.05, [-0.003, 0.005, 0.001])]).rows[1]?.differences[0]?.find((d) => d.metric === 'throughput');
    expect(faster?.difference).toMatchObject({ verdict: 'better', basis: 'runs' });
    expect(faster?.difference.lo).toBeGreaterThan(0);
    const same = compareRuns([a, set('set A again', 1, [-0.004, 0.005, -0.001])]).rows[1]?.differences[0]?.find((d) => d.metric === 'throughput');
    expect(same?.difference.verdict).toBe('no difference established');
    expect(same?.text).toMatch(/no difference established \(the interval includes zero\)$/);
  });

  it('never compares across an invalid level, and refuses fewer than 2 or more than 8 runs', () => {
    const bad = run('run 2', 5);
    bad.levels = bad.levels.map((l) => (l.concurrency === 2 ? { ...l, invalid: true, failed: 3 } : l));
    const c = compareRuns([run('run 1', 10), bad]);
    expect(c.rows[1]?.differences[0]?.every((d) => d.text === 'not compared: run 2 is invalid at this level (3 failed)')).toBe(true);
    expect(c.rows[1]?.runs[1]?.status).toMatch(/^invalid/);
    expect(c.rows[1]?.runs[1]?.badge).toEqual({ text: 'failed 3', tone: 'bad', reason: c.rows[1]?.runs[1]?.status });
    expect(() => compareRuns([run('a', 1)])).toThrow(/2 to 8 runs, not 1/);
    expect(() => compareRuns(Array.from({ length: 9 }, (_, i) => run(`r${i}`, 10)))).toThrow(/not 9/);
  });
});

describe('the verdict rule: only on levels both sides measured validly', () => {
  const bound = (r: CompareRun, c: number, reason: string): CompareRun => ({
    ...r,
    levels: r.levels.map((l) => (l.concurrency === c ? { ...l, clientBound: { ...l.clientBound, bound: true, reason } } : l)),
  });

  it('gives no verdict where either side is client-bound, and says whose level and why', () => {
    // Run 2 decodes twice as fast: without the rule, its client-bound level 2 would be called better.
    const base = run('run 1', 10);
    const fast = bound(run('run 2', 5), 2, 'send lag 40 ms past the 10 ms budget');
    const c = compareRuns([base, fast]);
    const at = (level: number) => c.rows.find((r) => r.level === level)?.differences[0] ?? [];
    expect(at(2)).toHaveLength(6);
    for (const d of at(2)) {
      expect(d.difference.verdict).toBe('not compared');
      expect(d.verdict).toBe('not compared: run 2 is client-bound at this level (our client was the bottleneck, not the server)');
    }
    // The other levels keep their verdicts.
    expect(at(1).find((d) => d.metric === 'tpotP50')?.difference.verdict).toBe('better');
    expect(c.rows.find((r) => r.level === 2)?.runs[1]?.badge).toMatchObject({ text: 'client-bound', tone: 'warn' });
    // The baseline's client-bound level is as unusable as the candidate's; both named when both are.
    const both = compareRuns([bound(base, 4, 'lag'), bound(run('run 2', 5), 4, 'lag')]).rows.find((r) => r.level === 4)?.differences[0]?.[0];
    expect(both?.verdict).toBe(
      'not compared: run 1 is client-bound at this level (our client was the bottleneck, not the server); run 2 is client-bound at this level (our client was the bottleneck, not the server)',
    );
  });

  it("leaves a repeat's client-bound level out of a comparison over runs", () => {
    const set = (label: string, stepMs: number, boundIn: number | null): CompareRun => {
      const one = run(label, stepMs);
      const again = (k: number) => ({
        levels: (k === boundIn ? bound(one, 1, 'lag') : one).levels.map((l) => ({ ...l, throughputTokS: l.throughputTokS * (1 + k / 1000) })),
      });
      return { ...one, repeats: [again(1), again(2)] };
    };
    // Three runs a side, one of the candidate's client-bound at level 1: two valid runs left, fewer than 3, so no interval over runs.
    const d = compareRuns([set('a', 10, null), set('b', 5, 2)]).rows[0]?.differences[0]?.find((x) => x.metric === 'throughput');
    expect(d?.difference.basis).not.toBe('runs');
  });
});

describe('the Pareto view', () => {
  it('draws a frontier per run in the right order and answers capacity by interpolating, never extrapolating', () => {
    const runs = [run('slow', 20, { gpuLabel: '2× H100' }), run('fast', 5, { gpuLabel: '2× H100' }), run('mid', 10, { gpuLabel: '2x H100' })];
    const m = paretoModel(runs);
    expect(m.per).toBe('GPU');
    expect(m.series.map((s) => s.frontier.length)).toEqual([3, 3, 3]);
    // At any shared speed the faster decoder serves more per GPU.
    const target = defaultTarget(m) as number;
    const answer = capacityAt(m, target);
    expect(answer.best?.label).toBe('fast');
    expect(answer.sentence).toMatch(
      /^At [\d.,]+ tok\/s per user, fast serves the most: [\d.,]+ output tok\/s per GPU \(interpolated between levels \d and \d\), \$[\d.]+ per 1M output tokens/,
    );
    const far = capacityAt(m, 10_000);
    expect(far.best).toBeNull();
    expect(far.entries[0]?.how).toMatch(/not measured at this speed .*never extrapolated/);
    expect(paretoTable(m).rows).toHaveLength(9);
    const svg = renderPareto(m, { document: parseHTML('<!doctype html><html><body></body></html>').document as never });
    expect(svg.getAttribute('role')).toBe('img');
    expect(svg.getAttribute('aria-label')).toMatch(/^slow: .*; fast: .*; mid: /);
  });

  it('keeps invalid and client-bound levels off the frontier, labelled; per server when the GPU count is unknown', () => {
    const r = run('r', 10);
    r.levels = r.levels.map((l) =>
      l.concurrency === 4 ? { ...l, invalid: true } : l.concurrency === 2 ? { ...l, clientBound: { ...l.clientBound, bound: true, reason: 'lag' } } : l,
    );
    const m = paretoModel([r, run('s', 10)]);
    expect(m.per).toBe('server');
    expect(m.yLabel).toMatch(/per server \(GPU count not recorded\)/);
    expect(m.series[0]?.frontier.map((p) => p.level)).toEqual([1]);
    expect(m.series[0]?.points.map((p) => p.state)).toEqual(['valid', 'client-bound', 'invalid']);
    const svg = renderPareto(m, { document: parseHTML('<!doctype html><html><body></body></html>').document as never }).outerHTML;
    expect(svg).toContain('>invalid<');
    expect(svg).toContain('>client-bound<');
  });

  it('reads the GPU count from the hardware label, and finds the frontier of dominated points', () => {
    expect([
      gpuCount({ gpuLabel: '8× H100' }),
      gpuCount({ gpuLabel: '4 x MI300X' }),
      gpuCount({ gpuLabel: 'H100' }),
      gpuCount({ gpuLabel: null }),
      gpuCount({ gpuLabel: '0x A' }),
    ]).toEqual([8, 4, null, null, null]);
    const p = (x: number, y: number) => ({ level: x, x, y, state: 'valid' as const });
    expect(frontier([p(1, 10), p(2, 5), p(1.5, 12), p(3, 1)]).map((q) => q.x)).toEqual([1.5, 2, 3]);
  });
});
