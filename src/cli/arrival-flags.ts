/**
 * `goodput sweep`'s arrival flags (`--arrival`, `--request-rate`, `--burstiness`,
 * `--max-concurrency`, `--burst-interval-ms`) → the spec's arrival and levels:
 * the same fields a contract's `load.pattern` and `load.levels` set, so a
 * command line says what a contract can (a vLLM bench user's
 * `--request-rate 4 --burstiness 0.5` included). Refusals name the flag.
 */
import { type ArrivalSpec, loadShapeProblem } from '../core/index.js';
import type { SweepSpecInput } from '../runner/index.js';
import { arrivalOps } from '../workload/index.js';
import { badFlag, parseLevels } from './parse-flags.js';
import { flagNumber, flagSeconds, parsePercentiles } from './option-flags.js';
import type { FlagsOf } from './sweep-flags.js';

export type ArrivalFlags = FlagsOf<'arrival'> & Pick<FlagsOf<'sweep'>, 'levels'> & Partial<Pick<FlagsOf<'sweep'>, 'workers'>>;

type RateProcess = Pick<Extract<ArrivalSpec, { kind: 'rate' }>, 'process' | 'burstiness'>;

/** Requests per second, comma-separated, each a rate the rate arrival accepts. */
function parseRates(flag: string, text: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.every((s) => s === '')) throw badFlag(flag, 'give at least one rate in requests/s, e.g. 4 or 1,2,4');
  const probe = arrivalOps({ kind: 'rate', process: 'poisson', seed: 1, maxConcurrency: null });
  return items.map((s) => {
    const rate = flag === '--request-rate' ? flagNumber('requestRate', s) : Number(s);
    const problem = s === '' || !Number.isFinite(rate) ? `'${s}' is not a rate in requests/s` : probe.checkLevel(rate);
    if (problem !== null) throw badFlag(flag, problem);
    return rate;
  });
}

/** `--burstiness` → the rate's process: 1 is poisson and inf constant, as vLLM reads them; any other shape poisson's gaps drawn from a gamma of that shape. */
function processOf(text: string): RateProcess {
  if (text === 'inf') return { process: 'constant' };
  const shape = flagNumber('burstiness', text);
  return shape === 1 ? { process: 'poisson' } : { process: 'poisson', burstiness: shape };
}

/** The kind of arrival the flags ask for, checking that they agree. */
function kindOf(f: ArrivalFlags, given: (key: string) => boolean): 'concurrency' | 'rate' | 'burst' {
  const byRate = f.requestRate !== 'inf';
  if (byRate && given('levels')) throw badFlag('--request-rate', 'gives the levels (requests/s): leave out --levels, or give --arrival rate --levels');
  if (byRate && given('arrival') && f.arrival !== 'rate') throw badFlag('--request-rate', `sends at a rate: it cannot be combined with --arrival ${f.arrival}`);
  const kind = byRate ? 'rate' : f.arrival;
  if (kind !== 'concurrency' && kind !== 'rate' && kind !== 'burst') throw badFlag('--arrival', `'${kind}' is not one of concurrency, rate, burst`);
  if (given('burstiness') && kind !== 'rate')
    throw badFlag('--burstiness', 'shapes the gaps of an open loop at a rate: give --request-rate (or --arrival rate)');
  if (given('maxConcurrency') && kind === 'concurrency')
    throw badFlag('--max-concurrency', "caps an open loop: give --request-rate or --arrival rate|burst (a closed loop's levels are its concurrency)");
  if (f.burstIntervalMs !== undefined && kind !== 'burst') throw badFlag('--burst-interval-ms', 'needs --arrival burst');
  if (f.burstIntervalMs === undefined && kind === 'burst') throw badFlag('--burst-interval-ms', 'is needed by --arrival burst: ms from one burst to the next');
  return kind;
}

/** The spec's levels and arrival from the flags; the arrival is left out for today's closed loop, so its spec is unchanged. */
export function arrivalFromFlags(f: ArrivalFlags, given: (key: string) => boolean): Pick<SweepSpecInput, 'levels' | 'arrival'> {
  const kind = kindOf(f, given);
  const maxConcurrency = f.maxConcurrency === undefined ? null : flagNumber('maxConcurrency', f.maxConcurrency);
  if (kind === 'concurrency') return { levels: parseLevels('--levels', f.levels) };
  if (kind === 'burst') {
    return {
      levels: parseLevels('--levels', f.levels),
      arrival: { kind, intervalMs: flagNumber('burstIntervalMs', f.burstIntervalMs as string), maxConcurrency },
    };
  }
  const levels = f.requestRate === 'inf' ? parseRates('--levels', f.levels) : parseRates('--request-rate', f.requestRate);
  return { levels, arrival: { kind, ...processOf(f.burstiness), maxConcurrency } };
}

/**
 * `--duration` and `--ramp-up` → the spec's durationS and rampUpS (nothing without them: levels of a request count,
 * their streams all at once). A closed loop's shape, on this machine's clients: refused beside a count, an open loop or workers.
 */
export function loadShapeFromFlags(
  f: ArrivalFlags,
  given: (key: string) => boolean,
  arrival: ArrivalSpec['kind'],
): Pick<SweepSpecInput, 'durationS' | 'rampUpS'> {
  const durationS = f.duration === undefined ? null : flagSeconds('duration', f.duration);
  const rampUpS = f.rampUp === undefined ? null : flagSeconds('rampUp', f.rampUp);
  const problem = loadShapeProblem(durationS, rampUpS);
  if (problem !== null) throw badFlag('--ramp-up', durationS === null ? `${problem.message} (--duration)` : problem.message);
  if (durationS === null) return {};
  if (given('requestsPerLevel'))
    throw badFlag('--duration', 'bounds each level by time: leave out --requests-per-level (a level is bounded by one or the other)');
  if (arrival !== 'concurrency')
    throw badFlag(
      '--duration',
      `bounds a closed loop's levels by time (its streams send until it ends): it cannot be combined with an open loop (--arrival ${arrival})`,
    );
  // A worker's share could not be accounted for by its sequence numbers, which a timed level does not know ahead.
  if (f.workers !== undefined) throw badFlag('--duration', "runs on this machine's client threads: leave out --workers");
  return { durationS, rampUpS };
}

/** `--metric-percentiles` → the percentiles printed after the table, or null without it. */
export function percentilesFromFlags(f: Pick<ArrivalFlags, 'metricPercentiles'>): number[] | null {
  return f.metricPercentiles === undefined ? null : parsePercentiles('--metric-percentiles', f.metricPercentiles);
}
