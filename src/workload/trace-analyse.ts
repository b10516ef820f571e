/**
 * What a trace holds, before it is replayed (AIPerf's analyse): its rate over
 * time, how bursty its arrivals are (the coefficient of variation of the gaps
 * between requests, and the shape of a gamma fitted to them by maximum
 * likelihood: 1 is Poisson, below 1 burstier, the same figure `--burstiness`
 * takes), its prompt and output lengths, and, where the format has hash ids,
 * how much of its prompts a perfect prefix cache would find already seen.
 * Pure: figures from a read trace.
 */
import { maxOf, mean, minOf, percentiles } from '../core/index.js';
import type { Trace } from './trace-read.js';

export interface Distribution {
  min: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export interface TraceAnalysis {
  file: string;
  format: Trace['format'];
  sha256: string;
  requests: number;
  spanS: number;
  meanRps: number;
  /** Requests sent in each bucket of `bucketS` seconds from the first. */
  rate: { bucketS: number; requests: number[] };
  gaps: {
    count: number;
    meanMs: number;
    /** Standard deviation over mean: 1 for Poisson arrivals, above 1 burstier. */
    cv: number | null;
    /** Gamma shape fitted to the gaps above zero (maximum likelihood); null below two such gaps. */
    gammaShape: number | null;
    /** Gaps of 0 ms (requests at the same instant): left out of the fit, which needs logarithms. */
    zero: number;
  };
  promptTokens: Distribution;
  outputTokens: Distribution;
  /** With hash ids: blocks whose id an earlier request's prompt began with the same way (a perfect prefix cache's hits). */
  prefix: { blocks: number; hitBlocks: number; hitShare: number; requestsWithHits: number } | null;
}

export function distribution(xs: readonly number[]): Distribution {
  const q = percentiles(xs, [50, 90, 99]) ?? { p50: 0, p90: 0, p99: 0 };
  return { min: minOf(xs) ?? 0, mean: mean(xs) ?? 0, ...q, max: maxOf(xs) ?? 0 };
}

/** ψ(x), the digamma function: recurrence up to 6, then its asymptotic series. */
function digamma(x: number): number {
  let r = 0;
  for (; x < 6; x++) r -= 1 / x;
  const f = 1 / (x * x);
  return r + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}
/** ψ'(x), the trigamma function, the same way. */
function trigamma(x: number): number {
  let r = 0;
  for (; x < 6; x++) r += 1 / (x * x);
  const f = 1 / (x * x);
  return r + 1 / x + f / 2 + (f / x) * (1 / 6 - f * (1 / 30 - f * (1 / 42 - f / 30)));
}

/**
 * The gamma shape k maximising the likelihood of `xs` (all above 0): solves ln k − ψ(k) = ln(mean) − mean(ln x),
 * from Minka's closed-form start, by Newton's method.
 */
export function gammaShapeMle(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const s = Math.log(m) - xs.reduce((a, b) => a + Math.log(b), 0) / xs.length;
  if (!(s > 0)) return null;
  let k = (3 - s + Math.sqrt((s - 3) ** 2 + 24 * s)) / (12 * s);
  for (let i = 0; i < 20; i++) {
    const step = (Math.log(k) - digamma(k) - s) / (1 / k - trigamma(k));
    const next = k - step;
    k = next > 0 ? next : k / 2;
    if (Math.abs(step) < 1e-10 * k) break;
  }
  return k;
}

/** Perfect prefix cache hits: a block hits when an earlier prompt began with the same ids up to and including it. */
function prefixHits(trace: Trace): TraceAnalysis['prefix'] {
  if (!trace.requests.some((r) => r.hashIds !== undefined)) return null;
  const seen = new Set<string>();
  let blocks = 0;
  let hitBlocks = 0;
  let requestsWithHits = 0;
  for (const r of trace.requests) {
    const ids = r.hashIds ?? [];
    let hit = 0;
    let key = '';
    let stillHitting = true;
    for (const id of ids) {
      key += `${id},`;
      if (stillHitting && seen.has(key)) hit++;
      else stillHitting = false;
      seen.add(key);
    }
    blocks += ids.length;
    hitBlocks += hit;
    if (hit > 0) requestsWithHits++;
  }
  return { blocks, hitBlocks, hitShare: blocks === 0 ? 0 : hitBlocks / blocks, requestsWithHits };
}

/** A bucket of about a thirtieth of the span, rounded to a readable size (at least 1 s). */
function bucketFor(spanS: number): number {
  const want = spanS / 30;
  return [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600].find((b) => b >= want) ?? 3600 * Math.ceil(want / 3600);
}

export function analyseTrace(trace: Trace, o: { bucketS?: number } = {}): TraceAnalysis {
  const at = trace.requests.map((r) => r.atMs);
  const spanS = ((at.at(-1) ?? 0) - (at[0] ?? 0)) / 1000;
  const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
  const meanGap = mean(gaps) ?? 0;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - meanGap) ** 2, 0) / Math.max(1, gaps.length - 1));
  const positive = gaps.filter((g) => g > 0);
  const bucketS = o.bucketS ?? bucketFor(spanS);
  const requests = new Array<number>(Math.floor(spanS / bucketS) + 1).fill(0);
  for (const t of at) {
    const b = Math.floor((t - (at[0] ?? 0)) / 1000 / bucketS);
    requests[b] = (requests[b] ?? 0) + 1;
  }
  return {
    file: trace.path,
    format: trace.format,
    sha256: trace.sha256,
    requests: at.length,
    spanS,
    meanRps: spanS > 0 ? (at.length - 1) / spanS : 0,
    rate: { bucketS, requests },
    gaps: {
      count: gaps.length,
      meanMs: meanGap,
      cv: gaps.length > 1 && meanGap > 0 ? sd / meanGap : null,
      gammaShape: gammaShapeMle(positive),
      zero: gaps.length - positive.length,
    },
    promptTokens: distribution(trace.requests.map((r) => r.promptTokens)),
    outputTokens: distribution(trace.requests.map((r) => r.outputTokens)),
    prefix: prefixHits(trace),
  };
}

export interface SessionAnalysis {
  file: string;
  format: string;
  sha256: string | null;
  sessions: number;
  /** Sessions another session spawned (an agent trace's sub-agents). */
  subAgents: number;
  turnsPerSession: Distribution;
  /** Each turn's own message (a ShareGPT human turn's words; an agent turn's whole prompt), and its output cap. */
  promptTokens: Distribution;
  outputTokens: Distribution;
}

/** Multi-turn sessions (ShareGPT conversations, agent traces): how many, how long, how big each turn. */
export function analyseSessions(
  src: { file: string; format: string; sha256: string | null },
  sessions: ReadonlyArray<{ parent?: number | null; turns: ReadonlyArray<{ p?: number | undefined; text?: string | undefined; o: number }> }>,
): SessionAnalysis {
  const turns = sessions.flatMap((s) => s.turns);
  return {
    ...src,
    sessions: sessions.length,
    subAgents: sessions.filter((s) => s.parent !== undefined && s.parent !== null).length,
    turnsPerSession: distribution(sessions.map((s) => s.turns.length)),
    promptTokens: distribution(turns.map((t) => t.p ?? (t.text ?? '').split(/\s+/).filter(Boolean).length)),
    outputTokens: distribution(turns.map((t) => t.o)),
  };
}
