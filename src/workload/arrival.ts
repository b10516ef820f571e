/**
 * Arrival patterns: each kind owns its logic — which level values it accepts,
 * how many requests a level runs by default, and the plan the runner follows:
 * closed loop (C slots) or open loop (a target send offset for every request).
 * Schedules are pure: the same spec, level and seed give the same offsets.
 */
import { type ArrivalKind, type ArrivalSpec, LIMITS, limitMessage, mulberry32 } from '../core/index.js';

/** Open loops never hold more streams than this without a declared cap (the client's socket budget). */
export const OPEN_LOOP_SOCKET_LIMIT = 1024;

/** What the runner does for one level. Offsets are ns from the level's start, ascending. */
export type LevelPlan = { kind: 'closed'; slots: number } | { kind: 'open'; offsetsNs: number[]; maxInFlight: number };

interface ArrivalOps<S extends ArrivalSpec> {
  /** Why a level value is not valid for this kind, or null. */
  checkLevel(level: number): string | null;
  /** Requests per level when the spec says 'auto'. */
  autoRequests(spec: S, level: number): number;
  /** Sockets to open before the level's clock starts. */
  warmSockets(spec: S, level: number, requests: number): number;
  /** Sockets the client may need at most. */
  connections(spec: S, level: number): number;
  label(spec: S, level: number): string;
  plan(spec: S, level: number, requests: number): LevelPlan;
  /** The next level to probe between a holding `lo` and a failing `hi`, or null when they are one step apart. */
  bisect(lo: number, hi: number, resolution: number): number | null;
}

type Ops = { [K in ArrivalKind]: ArrivalOps<Extract<ArrivalSpec, { kind: K }>> };

/** Whole, positive and within the concurrency limit (a level of C streams or a burst of C holds C sockets). */
const wholePositive = (what: string) => (level: number) => {
  if (!Number.isInteger(level) || level <= 0) return `${level} is not a whole number of ${what}`;
  return level > LIMITS.concurrency.max ? limitMessage('concurrency', level, 'level') : null;
};
/** 'auto' never asks for more than the table allows. */
const withinRequestLimit = (n: number) => Math.min(n, LIMITS.requestsPerLevel.max);

/** Exponential gaps of mean 1/rate (s) from a seeded generator, as cumulative ns offsets (first at 0). */
export function poissonOffsetsNs(ratePerS: number, n: number, seed: number): number[] {
  const rand = mulberry32(seed);
  const out: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    out.push(t);
    t += (-Math.log(1 - rand()) / ratePerS) * 1e9;
  }
  return out;
}

/**
 * Gamma gaps of shape `shape` and mean 1/rate (s) from a seeded generator, as cumulative ns offsets
 * (first at 0): vLLM's burstiness. Marsaglia and Tsang's method, with Box–Muller normals.
 */
export function gammaOffsetsNs(ratePerS: number, n: number, shape: number, seed: number): number[] {
  const rand = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const gamma = (k: number): number => {
    // Below shape 1: a draw of shape k + 1 scaled by U^(1/k).
    if (k < 1) return gamma(k + 1) * Math.pow(1 - rand(), 1 / k);
    const d = k - 1 / 3;
    const c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number;
      let v: number;
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      if (Math.log(1 - rand()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  const scaleS = 1 / (ratePerS * shape);
  const out: number[] = [];
  let t = 0;
  for (let i = 0; i < n; i++) {
    out.push(t);
    t += gamma(shape) * scaleS * 1e9;
  }
  return out;
}

/** Evenly spaced offsets, 1/rate apart (ns). */
export function constantOffsetsNs(ratePerS: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (i / ratePerS) * 1e9);
}

/** `size` requests at once every `intervalMs` (ns offsets). */
export function burstOffsetsNs(size: number, intervalMs: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => Math.floor(i / size) * intervalMs * 1e6);
}

/** A rate level's send offsets by its process (poisson with a burstiness: gamma gaps). */
function rateOffsetsNs(s: Extract<ArrivalSpec, { kind: 'rate' }>, ratePerS: number, n: number): number[] {
  if (s.process === 'constant') return constantOffsetsNs(ratePerS, n);
  return s.burstiness === undefined ? poissonOffsetsNs(ratePerS, n, s.seed) : gammaOffsetsNs(ratePerS, n, s.burstiness, s.seed);
}

/** Whole-number axes: done when adjacent. */
const bisectWhole = (lo: number, hi: number) => (hi - lo <= 1 ? null : Math.floor((lo + hi) / 2));
/** Continuous axes: done when the gap is within `resolution` (a share) of `hi`. */
const bisectRate = (lo: number, hi: number, resolution: number) => (hi - lo <= resolution * hi ? null : (lo + hi) / 2);

const ARRIVALS: Ops = {
  concurrency: {
    checkLevel: wholePositive('streams'),
    autoRequests: (_s, c) => withinRequestLimit(Math.max(8, 4 * c)),
    warmSockets: (_s, c, requests) => Math.min(c, requests),
    connections: (_s, c) => c,
    label: (_s, c) => `${c} stream${c === 1 ? '' : 's'}`,
    plan: (_s, c) => ({ kind: 'closed', slots: c }),
    bisect: bisectWhole,
  },
  rate: {
    checkLevel: (r) => (r > 0 && r <= 100_000 ? null : `${r} is not a rate between 0 and 100000 requests/s`),
    autoRequests: (_s, r) => withinRequestLimit(Math.max(16, Math.ceil(10 * r))),
    warmSockets: (s, _r, requests) => Math.min(s.maxConcurrency ?? 64, requests, 64),
    connections: (s) => s.maxConcurrency ?? OPEN_LOOP_SOCKET_LIMIT,
    label: (s, r) =>
      `${r} req/s ${s.process}${s.burstiness === undefined ? '' : `, burstiness ${s.burstiness}`}${s.process === 'poisson' ? ` (seed ${s.seed})` : ''}${s.maxConcurrency === null ? '' : `, cap ${s.maxConcurrency}`}`,
    plan: (s, r, n) => ({
      kind: 'open',
      offsetsNs: rateOffsetsNs(s, r, n),
      maxInFlight: s.maxConcurrency ?? OPEN_LOOP_SOCKET_LIMIT,
    }),
    bisect: bisectRate,
  },
  burst: {
    checkLevel: wholePositive('requests per burst'),
    autoRequests: (_s, b) => withinRequestLimit(Math.max(8, 4 * b)),
    warmSockets: (s, b, requests) => Math.min(s.maxConcurrency ?? b, requests),
    connections: (s) => s.maxConcurrency ?? OPEN_LOOP_SOCKET_LIMIT,
    label: (s, b) => `bursts of ${b} every ${s.intervalMs} ms${s.maxConcurrency === null ? '' : `, cap ${s.maxConcurrency}`}`,
    plan: (s, b, n) => ({ kind: 'open', offsetsNs: burstOffsetsNs(b, s.intervalMs, n), maxInFlight: s.maxConcurrency ?? OPEN_LOOP_SOCKET_LIMIT }),
    bisect: bisectWhole,
  },
  trace: {
    checkLevel: (x) => (x > 0 && x <= LIMITS.traceSpeed.max ? null : `${x} is not a speed above 0 and at most ${LIMITS.traceSpeed.max} (1 = as recorded)`),
    // Every request of the trace (its window), once.
    autoRequests: (s) => s.offsetsMs.length,
    warmSockets: (s, _x, requests) => Math.min(s.maxConcurrency ?? 64, requests, 64),
    connections: (s) => s.maxConcurrency ?? OPEN_LOOP_SOCKET_LIMIT,
    label: (s, x) => `trace ${s.source.file} at ${x}×${s.maxConcurrency === null ? '' : `, cap ${s.maxConcurrency}`}`,
    plan: (s, x, n) => ({
      kind: 'open',
      offsetsNs: s.offsetsMs.slice(0, n).map((ms) => (ms / x) * 1e6),
      maxInFlight: s.maxConcurrency ?? OPEN_LOOP_SOCKET_LIMIT,
    }),
    bisect: bisectRate,
  },
};

/** The operations of an arrival spec's kind, bound to the spec. */
export function arrivalOps(spec: ArrivalSpec) {
  const ops = ARRIVALS[spec.kind] as ArrivalOps<ArrivalSpec>;
  return {
    checkLevel: (level: number) => ops.checkLevel(level),
    autoRequests: (level: number) => ops.autoRequests(spec, level),
    warmSockets: (level: number, requests: number) => ops.warmSockets(spec, level, requests),
    connections: (level: number) => ops.connections(spec, level),
    label: (level: number) => ops.label(spec, level),
    plan: (level: number, requests: number) => ops.plan(spec, level, requests),
    bisect: (lo: number, hi: number, resolution: number) => ops.bisect(lo, hi, resolution),
  };
}
