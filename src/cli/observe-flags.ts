/**
 * `--otlp URL` (with `--otlp-header`) and `--serve-metrics [HOST:]PORT` → what watches the run, checked
 * before anything runs; and the run's hooks that feed it. The endpoint listens
 * on loopback (127.0.0.1) unless the user names another host: the address is
 * theirs to open. Export failures are reported after the run, never fail it.
 */
import { type ExtraHeader, LIMITS, sanitizeForTerminal as clean, headerProblem, isHeaderName, limitMessage } from '../core/index.js';
import { TOOL_VERSION } from '../runner/index.js';
import { type ObserveTarget, type RunObserver, startRunObserver } from '../telemetry/index.js';
import { badFlag, parseUrl } from './parse-flags.js';

/** `--serve-metrics`: a port, or host:port ([v6]:port); host 127.0.0.1 when only a port is given. */
export function parseMetricsAddress(text: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw badFlag('--serve-metrics', `'${clean(text).slice(0, 80)}' is not [host:]port (e.g. 127.0.0.1:9464, or 9464 for loopback)`);
  const host = m[1] === undefined ? '127.0.0.1' : m[1].replace(/^\[|\]$/g, '');
  return { host, port };
}

/**
 * `--otlp-header NAME=value`, repeatable, as OTEL_EXPORTER_OTLP_HEADERS writes them → the headers every export
 * sends, each checked as --header's are. A refusal names the argument by its place, never its value (a credential).
 */
export function otlpHeadersFromFlags(given: readonly string[]): ExtraHeader[] {
  if (given.length > LIMITS.extraHeaders.max) throw badFlag('--otlp-header', limitMessage('extraHeaders', given.length, 'headers'));
  const out: ExtraHeader[] = [];
  for (const [i, text] of given.entries()) {
    const eq = text.indexOf('=');
    if (eq <= 0) throw badFlag('--otlp-header', `argument ${i + 1} is not NAME=value (e.g. Authorization=Bearer …)`);
    const h = { name: text.slice(0, eq).trim(), value: text.slice(eq + 1).trim() };
    // "Authorization: Basic dXNlcg==" splits at the padding's =: what stands before it holds the credential, so it is never shown.
    if (!isHeaderName(h.name))
      throw badFlag(
        '--otlp-header',
        `argument ${i + 1}: what comes before its first = is not a header name (letters, digits and !#$%&'*+.^_\`|~- only); write NAME=value, e.g. Authorization=Bearer …`,
      );
    const problem = headerProblem(h.name, h.value, '--otlp-header');
    if (problem !== null) throw badFlag('--otlp-header', problem);
    if (out.some((o) => o.name.toLowerCase() === h.name.toLowerCase())) throw badFlag('--otlp-header', `${h.name} is given twice`);
    out.push(h);
  }
  return out;
}

/** The flags → what to start, or null when neither is given. */
export function observeFromFlags(f: { otlp?: string | undefined; otlpHeader?: string[] | undefined; serveMetrics?: string | undefined }): ObserveTarget | null {
  if (f.otlpHeader !== undefined && f.otlp === undefined) throw badFlag('--otlp-header', 'needs --otlp');
  if (f.otlp === undefined && f.serveMetrics === undefined) return null;
  return {
    otlp: f.otlp === undefined ? null : parseUrl('--otlp', f.otlp),
    ...(f.otlpHeader === undefined ? {} : { otlpHeaders: otlpHeadersFromFlags(f.otlpHeader) }),
    metrics: f.serveMetrics === undefined ? null : parseMetricsAddress(f.serveMetrics),
  };
}

/** Starts the observer, saying where the live endpoint answers; a port that cannot be opened is refused naming the flag. */
export async function startObserving(target: ObserveTarget): Promise<RunObserver> {
  const observer = await startRunObserver(target, { version: TOOL_VERSION }).catch((err: unknown) => {
    throw badFlag('--serve-metrics', (err as Error).message);
  });
  if (observer.metricsUrl !== null) process.stderr.write(`live metrics at ${observer.metricsUrl}\n`);
  return observer;
}

/** Ends the observer and says what became of the spans when any failed or were dropped. */
export async function stopObserving(observer: RunObserver): Promise<void> {
  const r = await observer.close();
  if (r === null) return;
  const lost = r.failed + r.dropped;
  if (lost === 0) return;
  const why = r.lastError === null ? '' : ` (last: ${clean(r.lastError)})`;
  process.stderr.write(`--otlp: ${r.exported} of ${r.queued + r.dropped} spans exported; ${r.failed} failed, ${r.dropped} dropped past the queue${why}\n`);
}
