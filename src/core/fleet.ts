/**
 * A fleet: one run's requests routed over several targets (`--url` given more
 * than once). The routing policies, and a level's breakdown per target computed
 * from its records alone (each record names its target by index). A target's
 * throughput is its output tokens over the level's own measured window, so the
 * targets' figures add up to the level's.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';
import { percentiles } from './percentiles.js';
import { type RequestRecord, isOk } from './record.js';
import { e2eMs, ttftMs } from './request-metrics.js';

/** How a request picks its target: in turn, the one with fewest requests in flight, or by its session (every turn of a session to one target). */
export const ROUTE_POLICIES = ['round-robin', 'least-in-flight', 'session'] as const;
export type RoutePolicy = (typeof ROUTE_POLICIES)[number];

const ms = z.number().nonnegative();
const spread = z.object({ p50: ms, p99: ms }).nullable();

/** One target's part of a level. */
export const targetLevelSchema = z
  .object({
    url: z.string().max(2048),
    requests: z.number().int().nonnegative(),
    succeeded: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    outputTokensTotal: z.number().nonnegative(),
    /** Its output tokens over the level's measured window, tok/s: the targets' add up to the level's throughput. */
    throughputTokS: z.number().nonnegative(),
    ttftMs: spread,
    e2eMs: spread,
  })
  .strict();
export type TargetLevel = z.infer<typeof targetLevelSchema>;

/** A level's targets, in the order the run gave them. */
export const targetLevelsSchema = z.array(targetLevelSchema).min(2).max(LIMITS.fleetTargets.max);

/** The run's fleet: its targets (the first is `run.url`) and how requests were routed. */
export const fleetRunSchema = z
  .object({
    urls: z.array(z.string().max(2048)).min(2).max(LIMITS.fleetTargets.max),
    route: z.enum(ROUTE_POLICIES),
  })
  .strict();
export type FleetRun = z.infer<typeof fleetRunSchema>;

const values = (rs: readonly RequestRecord[], f: (r: RequestRecord) => number | null): number[] => rs.flatMap((r) => ((v) => (v === null ? [] : [v]))(f(r)));

/**
 * The level's breakdown per target from its measured records; `durationMs` is
 * the level's measured window (LevelResult.durationMs). A record without a
 * target index counts for none.
 */
export function targetBreakdown(urls: readonly string[], records: readonly RequestRecord[], durationMs: number): TargetLevel[] {
  const measured = records.filter((r) => !r.warmup);
  return urls.map((url, i) => {
    const mine = measured.filter((r) => r.target === i);
    const ok = mine.filter(isOk);
    const outputTokensTotal = ok.reduce((a, r) => a + r.outputTokens, 0);
    const ttft = percentiles(values(ok, ttftMs), [50, 99]);
    const e2e = percentiles(values(ok, e2eMs), [50, 99]);
    return {
      url,
      requests: mine.length,
      succeeded: ok.length,
      failed: mine.length - ok.length,
      outputTokensTotal,
      throughputTokS: durationMs > 0 ? outputTokensTotal / (durationMs / 1000) : 0,
      ttftMs: ttft,
      e2eMs: e2e,
    };
  });
}

/**
 * The slowest target of a level by its TTFT p50 against the others' median, as a sentence; null when none
 * stands out by `factor` or more and by `minGapMs` (a few ms apart on a fast server is noise, not a slow replica).
 */
export function slowTarget(targets: readonly TargetLevel[], factor = 1.5, minGapMs = 10): string | null {
  const withTtft = targets.filter((t) => t.ttftMs !== null);
  if (withTtft.length < 2) return null;
  const sorted = [...withTtft].sort((a, b) => (b.ttftMs?.p50 ?? 0) - (a.ttftMs?.p50 ?? 0));
  const worst = sorted[0] as TargetLevel;
  const rest = sorted
    .slice(1)
    .map((t) => t.ttftMs?.p50 ?? 0)
    .sort((a, b) => a - b);
  const mid = Math.floor(rest.length / 2);
  const others = rest.length % 2 === 1 ? (rest[mid] as number) : ((rest[mid - 1] as number) + (rest[mid] as number)) / 2;
  const p50 = worst.ttftMs?.p50 ?? 0;
  if (others <= 0 || p50 < factor * others || p50 - others < minGapMs) return null;
  return `${worst.url} is slow: TTFT p50 ${p50.toFixed(1)} ms against ${others.toFixed(1)} ms on the others (${(p50 / others).toFixed(1)}×)`;
}
