/**
 * `goodput sweep --request-rate --burstiness --max-concurrency --arrival
 * --burst-interval-ms --metric-percentiles`: each parsed onto the spec fields
 * a contract's load pattern sets, each bound refused naming its flag, and a
 * rate sweep against the simulator sent open loop as a contract's is.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalSchema, sweepResultSchema } from '../core/index.js';
import { contractSchema } from '../contract/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { type ArrivalFlags, arrivalFromFlags, percentilesFromFlags } from './arrival-flags.js';

const defaults: ArrivalFlags = { levels: '1,2,4,8,16', arrival: 'concurrency', requestRate: 'inf', burstiness: '1' };
const read = (over: Partial<ArrivalFlags>, given: readonly string[] = Object.keys(over)) =>
  arrivalFromFlags({ ...defaults, ...over }, (k) => given.includes(k));

describe('the arrival flags', () => {
  it("leave today's closed loop alone: no arrival in the spec, the levels as given", () => {
    expect(read({})).toEqual({ levels: [1, 2, 4, 8, 16] });
    expect(read({ requestRate: 'inf', levels: '2,4' })).toEqual({ levels: [2, 4] });
  });

  it("--request-rate is an open loop at each rate, poisson by default, as a contract's rate pattern", () => {
    const load = read({ requestRate: '4,0.5' });
    expect(load).toEqual({ levels: [4, 0.5], arrival: { kind: 'rate', process: 'poisson', maxConcurrency: null } });
    // The spec's arrival is the contract's pattern, field for field.
    const pattern = contractSchema.shape.load.shape.pattern.parse({ kind: 'rate', process: 'poisson', maxConcurrency: null });
    expect(arrivalSchema.parse(load.arrival)).toEqual(pattern);
  });

  it("--burstiness is vLLM's gamma shape: 1 poisson, inf constant, else poisson with gamma gaps of that shape", () => {
    expect(read({ requestRate: '4', burstiness: '1' }).arrival).toMatchObject({ process: 'poisson' });
    expect(read({ requestRate: '4', burstiness: 'inf' }).arrival).toMatchObject({ process: 'constant' });
    expect(read({ requestRate: '4', burstiness: '0.5' }).arrival).toEqual({ kind: 'rate', process: 'poisson', burstiness: 0.5, maxConcurrency: null });
  });

  it('--arrival rate|burst reads --levels on its axis, --max-concurrency caps it', () => {
    expect(read({ arrival: 'rate', levels: '0.5,2', maxConcurrency: '8' })).toEqual({
      levels: [0.5, 2],
      arrival: { kind: 'rate', process: 'poisson', maxConcurrency: 8 },
    });
    expect(read({ arrival: 'burst', levels: '4', burstIntervalMs: '250' })).toEqual({
      levels: [4],
      arrival: { kind: 'burst', intervalMs: 250, maxConcurrency: null },
    });
  });

  it('--metric-percentiles reads a list of percentiles', () => {
    expect(percentilesFromFlags({ metricPercentiles: '50,90,99' })).toEqual([50, 90, 99]);
    expect(percentilesFromFlags({})).toBeNull();
  });

  const refusals: Array<[string, () => unknown, RegExp]> = [
    ['a zero rate', () => read({ requestRate: '0' }), /^--request-rate: '0' must be greater than 0$/],
    ["a rate past the rate arrival's bound", () => read({ requestRate: '200000' }), /^--request-rate: 200000 is not a rate between 0 and 100000 requests\/s$/],
    ['a rate that is text', () => read({ requestRate: 'fast' }), /^--request-rate: 'fast' is not a number$/],
    ['a rate with --levels', () => read({ requestRate: '4', levels: '1,2' }), /^--request-rate: gives the levels/],
    [
      'a rate with another --arrival',
      () => read({ requestRate: '4', arrival: 'burst' }),
      /^--request-rate: sends at a rate: it cannot be combined with --arrival burst$/,
    ],
    ['a zero burstiness', () => read({ requestRate: '4', burstiness: '0' }), /^--burstiness: '0' must be greater than 0$/],
    ['burstiness on a closed loop', () => read({ burstiness: '0.5' }), /^--burstiness: shapes the gaps of an open loop/],
    [
      'a cap past the limits table',
      () => read({ requestRate: '4', maxConcurrency: '5000' }),
      /^--max-concurrency: 5000 is above the limit of 4096 concurrent streams in one level$/,
    ],
    ['a cap on a closed loop', () => read({ maxConcurrency: '4' }), /^--max-concurrency: caps an open loop/],
    ['bursts without an interval', () => read({ arrival: 'burst' }), /^--burst-interval-ms: is needed by --arrival burst/],
    ['an interval without bursts', () => read({ burstIntervalMs: '100' }), /^--burst-interval-ms: needs --arrival burst$/],
    ['a percentile of 0', () => percentilesFromFlags({ metricPercentiles: '0,50' }), /^--metric-percentiles: '0' is not a percentile above 0 and at most 100/],
    ['a percentile past 100', () => percentilesFromFlags({ metricPercentiles: '50,101' }), /^--metric-percentiles: '101' is not a percentile/],
  ];
  for (const [what, run, message] of refusals) it(`refuses ${what}, naming the flag`, () => expect(run).toThrow(message));
});

describe('goodput sweep --request-rate against the simulator', () => {
  let sim: SimServer;
  const dir = mkdtempSync(join(tmpdir(), 'goodput-rate-'));
  beforeAll(async () => {
    sim = await startSimulator({ prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it("sends open loop at the rate, the result stating the arrival a contract's rate pattern states, and prints the percentiles asked for", async () => {
    const json = join(dir, 'rate.json');
    const r = await cli([
      'sweep',
      '--url',
      sim.url,
      '--request-rate',
      '40',
      '--burstiness',
      '0.5',
      '--max-concurrency',
      '16',
      '--requests-per-level',
      '12',
      '--prompt-tokens',
      '16',
      '--output-tokens',
      '8',
      '--no-server-metrics',
      '--metric-percentiles',
      '50,90,99',
      '--json',
      json,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    const pattern = contractSchema.shape.load.shape.pattern.parse({ kind: 'rate', process: 'poisson', burstiness: 0.5, maxConcurrency: 16 });
    expect(result.run.arrival).toEqual(pattern);
    const level = result.levels[0];
    expect(level?.load).toMatchObject({ kind: 'rate', level: 40, label: '40 req/s poisson, burstiness 0.5 (seed 1), cap 16', offeredRps: expect.any(Number) });
    expect(level?.succeeded).toBe(12);
    expect(r.stdout).toMatch(
      /Percentiles \(ms, vLLM's definitions, from the raw records\):\n {2}40 req\/s poisson, burstiness 0\.5 \(seed 1\), cap 16: TTFT p50 [\d.]+ p90 [\d.]+ p99 [\d.]+ · TPOT p50/,
    );
  });

  it('refuses the arrival flags on an embeddings sweep, naming the flag', async () => {
    const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--request-rate', '4']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--request-rate: does not apply to --endpoint embeddings');
  });
});
