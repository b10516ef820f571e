/**
 * Finds the server's Prometheus endpoint: the URL given, or the known paths under
 * the server's root, in the order of METRICS_PATHS (TRT-LLM's Prometheus path
 * first, because its `/metrics` is a JSON list that is emptied when read). An
 * endpoint counts when it answers 200 with Prometheus text that has samples.
 */
import { serverRoot } from '../client/index.js';
import { METRICS_PATHS, type PromScrape, parsePrometheusText } from '../core/index.js';
import { getText } from './http-text.js';

export type MetricsEndpoint = { ok: true; url: string; scrape: PromScrape } | { ok: false; reason: string };

/** Scrapes one URL: its parsed exposition, or why it is not one. */
export async function scrapeMetrics(
  url: string,
  opts: { timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<{ ok: true; scrape: PromScrape } | { ok: false; error: string }> {
  const res = await getText(url, opts);
  if (!res.ok) return { ok: false, error: res.error };
  if (res.status !== 200) return { ok: false, error: `HTTP ${res.status}` };
  const head = res.text.trimStart()[0];
  if (head === '{' || head === '[') return { ok: false, error: 'JSON, not Prometheus text' };
  const scrape = parsePrometheusText(res.text);
  if (scrape.samples.length === 0) return { ok: false, error: 'no Prometheus samples in the answer' };
  return { ok: true, scrape };
}

/** Where to look first, and what to say when nothing is found (from the detected engine's dialect). */
export interface EndpointHints {
  /** The engine's own metrics path, tried first. */
  preferredPath?: string | null;
  /** e.g. "llama.cpp serves it only with --metrics"; replaces the generic advice. */
  missingHint?: string;
}

/**
 * The metrics endpoint of a server.
 * @param explicitUrl a `--metrics-url`; when given, only it is tried.
 */
export async function findMetricsEndpoint(
  baseUrl: string,
  explicitUrl: string | null,
  opts: { timeoutMs?: number; headers?: Record<string, string> } & EndpointHints = {},
): Promise<MetricsEndpoint> {
  const root = serverRoot(baseUrl);
  const paths = [...new Set([...(opts.preferredPath ? [opts.preferredPath] : []), ...METRICS_PATHS])];
  const urls = explicitUrl !== null ? [explicitUrl] : paths.map((p) => root + p);
  const tried: string[] = [];
  for (const url of urls) {
    const r = await scrapeMetrics(url, opts);
    if (r.ok) return { ok: true, url, scrape: r.scrape };
    tried.push(`${url} (${r.error})`);
  }
  const advice = opts.missingHint ?? 'llama.cpp needs --metrics, SGLang --enable-metrics, and Ollama has none';
  const hint = explicitUrl !== null ? '' : `; ${advice} (or pass --metrics-url)`;
  return { ok: false, reason: `no Prometheus metrics at ${tried.join(' or ')}${hint}` };
}
