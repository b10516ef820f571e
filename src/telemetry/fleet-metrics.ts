/**
 * A fleet's counters, for the same per-level session one server gets: every
 * target's own endpoint scraped and merged (each series labelled with its
 * endpoint), or a Prometheus server's query API asked for the series a
 * selector picks (`--prometheus URL --selector '{job="vllm"}'`) at the instant
 * each scrape would have been taken. The readers sum a counter's series, so
 * the level's differences are the fleet's.
 */
import { type MetricFamily, type PromScrape, discoverMetrics, mergeScrapes, scrapeOfVector } from '../core/index.js';
import { getText } from './http-text.js';
import { type EndpointHints, findMetricsEndpoint, scrapeMetrics } from './metrics-endpoint.js';
import { type Scrape, type ServerMetricsSession, metricsSession } from './server-metrics.js';

type Opened = { ok: true; session: ServerMetricsSession } | { ok: false; reason: string };

export interface FleetMetricsOptions extends EndpointHints {
  /** Every target's base URL, in the run's order. */
  baseUrls: readonly string[];
  intervalMs: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
  hint?: MetricFamily | null;
}

/** Each target's endpoint, found as one server's is; a target without one is named. */
export async function openFleetMetrics(o: FleetMetricsOptions): Promise<Opened> {
  const opts = { timeoutMs: o.timeoutMs ?? 2000, headers: o.headers };
  const found = await Promise.all(o.baseUrls.map((u) => findMetricsEndpoint(u, null, { ...opts, preferredPath: o.preferredPath, missingHint: o.missingHint })));
  const urls: string[] = [];
  for (const [i, f] of found.entries()) {
    if (!f.ok) return { ok: false, reason: `target ${o.baseUrls[i]}: ${f.reason}` };
    urls.push(f.url);
  }
  const scrape: Scrape = async () => {
    const got = await Promise.all(urls.map((u) => scrapeMetrics(u, opts)));
    const parts: Array<{ instance: string; scrape: PromScrape }> = [];
    for (const [i, g] of got.entries()) {
      if (!g.ok) return { ok: false, error: `${urls[i]}: ${g.error}` };
      parts.push({ instance: urls[i] as string, scrape: g.scrape });
    }
    return { ok: true, scrape: mergeScrapes(parts) };
  };
  const first = await scrape();
  if (!first.ok) return { ok: false, reason: first.error };
  return { ok: true, session: metricsSession(urls.join(' + '), discoverMetrics(first.scrape, o.hint ?? null), scrape, o.intervalMs) };
}

export interface PrometheusOptions {
  /** The Prometheus server's base URL (its query API is under /api/v1/query). */
  url: string;
  /** Label matchers in braces, e.g. `{job="vllm"}`: every series of the fleet's servers. */
  selector: string;
  intervalMs: number;
  timeoutMs?: number;
  hint?: MetricFamily | null;
  /** Wall-clock ms, the instant each query is asked at; default Date.now. */
  nowMs?: () => number;
}

/** One instant query of the selector at now: the series as a scrape, or why not. */
export function prometheusScrape(o: PrometheusOptions): Scrape {
  const base = o.url.replace(/\/+$/, '');
  return async () => {
    const at = ((o.nowMs ?? Date.now)() / 1000).toFixed(3);
    const url = `${base}/api/v1/query?query=${encodeURIComponent(o.selector)}&time=${at}`;
    const res = await getText(url, { timeoutMs: o.timeoutMs ?? 2000 });
    if (!res.ok) return { ok: false, error: `${base}: ${res.error}` };
    if (res.status !== 200) return { ok: false, error: `${base}: HTTP ${res.status} to the query ${o.selector}` };
    let json: unknown;
    try {
      json = JSON.parse(res.text);
    } catch {
      return { ok: false, error: `${base}: the query API answered something that is not JSON` };
    }
    const scrape = scrapeOfVector(json);
    return scrape.ok ? scrape : { ok: false, error: `${base} ${o.selector}: ${scrape.error}` };
  };
}

/**
 * A Prometheus server answers with what it scraped last: the query after a level is asked again, a second
 * apart, until it counts the level's requests, for up to 30 s (twice its default 15 s scrape interval).
 */
const PROMETHEUS_SETTLE = { tries: 31, ms: 1000 };

/** The fleet's counters from a Prometheus server: the metric names found in its first answer, then the same query per scrape. */
export async function openPrometheusMetrics(o: PrometheusOptions): Promise<Opened> {
  const scrape = prometheusScrape(o);
  const first = await scrape();
  if (!first.ok) return { ok: false, reason: first.error };
  const map = discoverMetrics(first.scrape, o.hint ?? null);
  return { ok: true, session: metricsSession(`${o.url} ${o.selector}`, map, scrape, o.intervalMs, PROMETHEUS_SETTLE) };
}
