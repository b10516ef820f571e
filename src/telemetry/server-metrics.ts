/**
 * Scrapes the server's Prometheus endpoint around each level: once just before
 * the measured requests, every `intervalMs` during them for the gauges (running,
 * waiting, KV-cache usage), and once after. Only GETs of the metrics path: a
 * health-generate style endpoint that runs a generation is never called.
 */
import { type GaugeReading, type MetricFamily, type MetricMap, type PromScrape, discoverMetrics, readGauges, seriesValue } from '../core/index.js';
import { type EndpointHints, findMetricsEndpoint, scrapeMetrics } from './metrics-endpoint.js';

export interface ServerMetricsOptions extends EndpointHints {
  /** The server's base URL (`…/v1` allowed). */
  baseUrl: string;
  /** `--metrics-url`: used instead of probing the known paths. */
  metricsUrl: string | null;
  /** Gauge sampling period during a level, ms. */
  intervalMs: number;
  /** Per-scrape limit, ms. Default 2000. */
  timeoutMs?: number;
  headers?: Record<string, string>;
  /** The engine detected for the server, when known. */
  hint?: MetricFamily | null;
}

/** The scrapes that bracket one level. */
export interface LevelScrapes {
  before: PromScrape;
  after: PromScrape;
  readings: GaugeReading[];
}

export interface ServerMetricsSession {
  readonly url: string;
  readonly map: MetricMap;
  /** Scrapes before the measured requests and starts sampling gauges. */
  begin(): Promise<void>;
  /**
   * Stops sampling and scrapes after the level. When the server counts finished
   * requests, re-scrapes (up to 5 times, 100 ms apart) until it has counted
   * `finished` of them, so a server that records stats just after the last byte is not cut short.
   */
  end(finished: number): Promise<LevelScrapes | { error: string }>;
}

const MAX_READINGS = 100_000;
/** How long the scrape after a level waits for the server to count the level's requests: `tries` scrapes `ms` apart. */
export interface Settle {
  tries: number;
  ms: number;
}
const SETTLE: Settle = { tries: 5, ms: 100 };

function requestsCounted(before: PromScrape, after: PromScrape, map: MetricMap): number | null {
  const c = map.roles.requests;
  if (!c || (c.shape.kind !== 'counter' && c.shape.kind !== 'histogram-count')) return null;
  const name = c.shape.kind === 'counter' ? c.shape.name : `${c.shape.name}_count`;
  const a = seriesValue(before, name, { combine: 'sum' });
  const b = seriesValue(after, name, { combine: 'sum' });
  return a === null || b === null ? null : b - a;
}

/** One scrape of whatever stands for the server's metrics: its parsed series, or why not. */
export type Scrape = () => Promise<{ ok: true; scrape: PromScrape } | { ok: false; error: string }>;

/** Finds the endpoint and the metric names; a session for the levels, or why there is none. */
export async function openServerMetrics(o: ServerMetricsOptions): Promise<{ ok: true; session: ServerMetricsSession } | { ok: false; reason: string }> {
  const scrapeOpts = { timeoutMs: o.timeoutMs ?? 2000, headers: o.headers };
  const found = await findMetricsEndpoint(o.baseUrl, o.metricsUrl, { ...scrapeOpts, preferredPath: o.preferredPath, missingHint: o.missingHint });
  if (!found.ok) return found;
  const url = found.url;
  const map = discoverMetrics(found.scrape, o.hint ?? null);
  return { ok: true, session: metricsSession(url, map, () => scrapeMetrics(url, scrapeOpts), o.intervalMs) };
}

/**
 * The levels' scrapes of a metrics source named `url` whose names `map` found:
 * one before, the gauges every `intervalMs` during, and one after (settled).
 * One endpoint, a fleet's endpoints merged, or a Prometheus server's answer.
 */
export function metricsSession(url: string, map: MetricMap, scrape: Scrape, intervalMs: number, settle: Settle = SETTLE): ServerMetricsSession {
  let before: PromScrape | null = null;
  let readings: GaugeReading[] = [];
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  let lastError: string | null = null;

  const sample = () => {
    if (inFlight || readings.length >= MAX_READINGS) return;
    inFlight = scrape()
      .then((r) => {
        if (r.ok) readings.push({ atMs: performance.now(), values: readGauges(r.scrape, map) });
      })
      .finally(() => {
        inFlight = null;
      });
  };
  const stop = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (inFlight) await inFlight;
  };

  return {
    url,
    map,
    async begin() {
      await stop();
      readings = [];
      const r = await scrape();
      before = r.ok ? r.scrape : null;
      lastError = r.ok ? null : r.error;
      // The first reading a moment after the requests start, then every interval.
      const tick = () => {
        sample();
        timer = setTimeout(tick, intervalMs);
        timer.unref();
      };
      timer = setTimeout(tick, Math.min(intervalMs, 250));
      timer.unref();
    },
    async end(finished) {
      await stop();
      if (before === null) return { error: `the scrape before the level failed: ${lastError ?? 'not begun'}` };
      let after: PromScrape | null = null;
      for (let i = 0; i < settle.tries; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, settle.ms));
        const r = await scrape();
        if (!r.ok) return { error: `the scrape after the level failed: ${r.error}` };
        after = r.scrape;
        const counted = requestsCounted(before, after, map);
        if (counted === null || counted >= finished) break;
      }
      return { before, after: after as PromScrape, readings };
    },
  };
}
