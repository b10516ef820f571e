/**
 * Which of the catalog's names a server actually exposes: done once per run on a
 * first scrape, because names drift between engine releases. The family is the
 * one with the most names present (or the detected engine, when it has any);
 * each role takes the first of that family's names that is present, and the
 * roles without one are reported as missing.
 */
import { FAMILY_PREFIXES, METRIC_CATALOG, type MetricCandidate, type MetricFamily, type MetricRole, requiredNames } from './metric-catalog.js';
import { hasSeries } from './prometheus-series.js';
import type { PromScrape } from './prometheus-text.js';

/** The names chosen for one server. */
export interface MetricMap {
  family: MetricFamily | null;
  roles: Partial<Record<MetricRole, MetricCandidate>>;
  /** Roles with no known name in the scrape (the engine-only GPU memory gauge is never listed). */
  missing: MetricRole[];
}

/** Words for each role, for messages and the README. */
export const ROLE_LABELS: Readonly<Record<MetricRole, string>> = {
  ttftMs: 'TTFT',
  itlMs: 'inter-token time',
  e2eMs: 'e2e latency',
  queueMs: 'queue time',
  requests: 'finished requests',
  generatedTokens: 'generated tokens',
  promptTokens: 'prompt tokens',
  prefixCacheHitPct: 'prefix-cache hits',
  running: 'requests running',
  waiting: 'requests waiting',
  kvCacheUsagePct: 'KV-cache usage',
  gpuMemoryBytes: 'GPU memory',
};

const REPORTED: readonly MetricRole[] = [
  'ttftMs',
  'itlMs',
  'e2eMs',
  'queueMs',
  'requests',
  'generatedTokens',
  'promptTokens',
  'prefixCacheHitPct',
  'running',
  'waiting',
  'kvCacheUsagePct',
];

function present(scrape: PromScrape, c: MetricCandidate): boolean {
  return requiredNames(c.shape).every((n) => hasSeries(scrape, n));
}

function chooseFamily(scrape: PromScrape, hint: MetricFamily | null): MetricFamily | null {
  const score = new Map<MetricFamily, number>();
  for (const c of METRIC_CATALOG) if (present(scrape, c)) score.set(c.family, (score.get(c.family) ?? 0) + 1);
  if (hint !== null && (score.get(hint) ?? 0) > 0) return hint;
  let best: MetricFamily | null = null;
  for (const [family, n] of score) if (best === null || n > (score.get(best) ?? 0)) best = family;
  if (best !== null) return best;
  // No known name at all: still say whose exposition it looks like (e.g. a newer release that renamed everything).
  for (const [family, prefix] of Object.entries(FAMILY_PREFIXES) as Array<[MetricFamily, string]>) {
    if (scrape.samples.some((s) => s.name.startsWith(prefix))) return family;
  }
  return null;
}

/**
 * Picks a name for every role from a scrape.
 * @param hint the engine detected for the server, when known; used when it has any name present.
 */
export function discoverMetrics(scrape: PromScrape, hint: MetricFamily | null = null): MetricMap {
  const family = chooseFamily(scrape, hint);
  const roles: Partial<Record<MetricRole, MetricCandidate>> = {};
  for (const c of METRIC_CATALOG) {
    if (c.family !== family || roles[c.role] !== undefined) continue;
    if (present(scrape, c)) roles[c.role] = c;
  }
  return { family, roles, missing: REPORTED.filter((role) => roles[role] === undefined) };
}

/** "TTFT, queue time" — the missing roles in words. */
export function describeRoles(roles: readonly MetricRole[]): string {
  return roles.map((r) => ROLE_LABELS[r]).join(', ');
}
