/**
 * `goodput sweep --request-rate --burstiness --max-concurrency --arrival
 * --burst-interval-ms --metric-percentiles`: each parsed onto the spec fields
 * a contract's load pattern sets, each bound refused naming its flag, and a
 * rate sweep against the simulator sent open loop as a contract's is.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrivalSchema, sweepResultSchema } from '../core/index.js';
import { contractSchema } from '../contract/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { type ArrivalFlags, arrivalFromFlags, loadShapeFromFlags, percentilesFromFlags } from './arrival-flags.js';

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

describe('the load shape flags', () => {
  const shape = (over: Partial<ArrivalFlags>, given: readonly string[] = Object.keys(over), kind: 'concurrency' | 'rate' | 'burst' = 'concurrency') =>
    loadShapeFromFlags({ ...defaults, ...over }, (k) => given.includes(k), kind);

  it('read --duration and --ramp-up as seconds, and leave a level of a request count alone', () => {
    expect(shape({})).toEqual({});
    expect(shape({ duration: '2m' })).toEqual({ durationS: 120, rampUpS: null });
    expect(shape({ duration: '60s', rampUp: '5' })).toEqual({ durationS: 60, rampUpS: 5 });
  });

  const refusals: Array<[string, () => unknown, string]> = [
    ['a zero duration', () => shape({ duration: '0' }), '--duration: 0 is not above 0 seconds, e.g. 5 or 60s'],
    [
      'a negative ramp',
      () => shape({ duration: '60s', rampUp: '-1' }),
      "--ramp-up: '-1' is not a time (a negative time): give seconds (60 or 60s), minutes (2m) or hours (1h), above 0",
    ],
    [
      'a duration past the limits table',
      () => shape({ duration: '61m' }),
      '--duration: 61m (3660 s) is above the limit of 3600 seconds one level bounded by time sends for (--duration)',
    ],
    [
      'a ramp without a duration',
      () => shape({ rampUp: '5' }),
      '--ramp-up: a ramp opens the streams of a level bounded by time: give a duration too, the ramp inside it (--duration)',
    ],
    [
      'a ramp longer than the duration',
      () => shape({ duration: '10s', rampUp: '12' }),
      '--ramp-up: the ramp (12 s) must end before the level does (duration 10 s): the measured window is what is left of the duration after it',
    ],
    [
      'a duration beside a request count',
      () => shape({ duration: '10s' }, ['duration', 'requestsPerLevel']),
      '--duration: bounds each level by time: leave out --requests-per-level (a level is bounded by one or the other)',
    ],
    [
      'a duration on an open loop',
      () => shape({ duration: '10s' }, ['duration'], 'rate'),
      "--duration: bounds a closed loop's levels by time (its streams send until it ends): it cannot be combined with an open loop (--arrival rate)",
    ],
    ['a duration over workers', () => shape({ duration: '10s', workers: '2' }), "--duration: runs on this machine's client threads: leave out --workers"],
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

  it('sends levels bounded by time, the result stating the shape and each level its window; a bad time writes nothing', async () => {
    const json = join(dir, 'timed.json');
    const args = ['sweep', '--url', sim.url, '--levels', '2', '--prompt-tokens', '16', '--output-tokens', '8', '--no-server-metrics', '--json', json];
    const bad = await cli([...args, '--duration', '0s']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--duration: 0s is not above 0 seconds, e.g. 5 or 60s');
    expect(existsSync(json)).toBe(false);
    const r = await cli([...args, '--duration', '0.4s', '--ramp-up', '0.2']);
    expect(r.code, r.stderr).toBe(0);
    const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
    expect(result.run.loadShape).toEqual({ durationS: 0.4, rampUpS: 0.2 });
    expect(result.levels[0]?.window).toMatchObject({ durationS: 0.4, rampUpS: 0.2, endedBy: 'duration' });
  });

  it('refuses the arrival flags on an embeddings sweep, naming the flag', async () => {
    const r = await cli(['sweep', '--url', sim.url, '--endpoint', 'embeddings', '--request-rate', '4']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--request-rate: does not apply to --endpoint embeddings');
  });
});
