/**
 * Spans over OTLP/HTTP (`--otlp URL`): one client span per request, in the
 * OTLP/HTTP JSON encoding of ExportTraceServiceRequest, POSTed to the URL the
 * user gave (a collector's /v1/traces). A span carries the ids the request sent
 * in `traceparent`, so the server's spans for it are its children. A small
 * POST of JSON does it: the OpenTelemetry SDK and its exporter would bring a
 * tracer, a context manager and their batch processor for what is, here, a
 * list of finished records turned into JSON between levels.
 *
 * Off the hot path: a completed record is only queued (a reference, no work);
 * spans are built and sent by `flush`, which the run awaits after each level
 * and at its end. The queue is bounded (otlpQueueSpans: past it, spans are
 * dropped and counted), a request carries at most otlpBatchSpans, and a failed
 * export is counted, never thrown: observing a run never fails it.
 */
import { request } from 'undici';
import { type TraceIds, traceIdSource } from '../client/index.js';
import { type ExtraHeader, LIMITS, type RequestRecord, ttftMs } from '../core/index.js';
import { httpFailure } from './http-text.js';

/** What became of the spans, for the run's last lines. */
export interface OtlpReport {
  queued: number;
  exported: number;
  /** Sent and refused (an HTTP error, a partial success's rejected spans), or never sent after a failure. */
  failed: number;
  /** Past the queue's bound: never sent. */
  dropped: number;
  /** The last failure, in a few words (our own: a status or a system code, never the collector's text). */
  lastError: string | null;
}

/** A POST of one export request: its status and the collector's answer (bounded), or why it failed. */
export type OtlpPost = (body: string) => Promise<{ ok: true; status: number; text: string } | { ok: false; error: string }>;

export interface OtlpOptions {
  url: string;
  /** The instrumentation scope's version: goodput's own. */
  version: string;
  /** Epoch ms of the records' clock origin (the process's performance.timeOrigin for the monotonic clock). */
  originMs?: number;
  timeoutMs?: number;
  /** Sent with every export request (a hosted collector's credentials: --otlp-header); never written down. */
  headers?: readonly ExtraHeader[];
  /** Sends one request (tests pass their own); default an HTTP POST of JSON. */
  post?: OtlpPost;
}

export interface OtlpExporter {
  /** Queues a completed request's span; `level` is its level's 0-based index. Never blocks, never sends. */
  add(r: RequestRecord, level: number): void;
  /** Sends every queued span in batches; the first failure counts the rest of the queue failed (a dead collector costs one deadline). */
  flush(): Promise<void>;
  report(): OtlpReport;
}

type Attribute = { key: string; value: { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean } };

const str = (key: string, v: string): Attribute => ({ key, value: { stringValue: v } });
const int = (key: string, v: number): Attribute => ({ key, value: { intValue: String(Math.round(v)) } });

/** Epoch nanoseconds as OTLP JSON writes them (a decimal string): the origin to the microsecond, the instant to the nanosecond. */
export const unixNanos = (originMs: number, ns: number): string => String(BigInt(Math.round(originMs * 1000)) * 1000n + BigInt(Math.round(ns)));

/** One request as an OTLP span (kind CLIENT; status ERROR unless its outcome is ok). */
export function requestSpan(r: RequestRecord, level: number, ids: TraceIds, originMs: number): object {
  const endNs = r.endNs ?? r.headersNs ?? r.sendNs;
  const ttft = ttftMs(r);
  const attributes: Attribute[] = [
    str('goodput.request_id', r.requestId ?? ''),
    int('goodput.level', level),
    int('goodput.concurrency', r.concurrency),
    str('goodput.outcome', r.outcome.kind),
    { key: 'goodput.warmup', value: { boolValue: r.warmup } },
    int('goodput.output_tokens', r.outputTokens),
    ...(r.promptTokens === null ? [] : [int('goodput.prompt_tokens', r.promptTokens)]),
    ...(ttft === null ? [] : [{ key: 'goodput.ttft_ms', value: { doubleValue: ttft } }]),
    ...(r.httpStatus === null ? [] : [int('http.response.status_code', r.httpStatus)]),
  ];
  return {
    traceId: ids.traceId,
    spanId: ids.spanId,
    name: 'goodput request',
    kind: 3,
    startTimeUnixNano: unixNanos(originMs, r.sendNs),
    endTimeUnixNano: unixNanos(originMs, Math.max(endNs, r.sendNs)),
    attributes,
    // A request given up on purpose is no error: its status is left unset, its outcome attribute says why.
    status: r.outcome.kind === 'ok' ? { code: 1 } : r.outcome.kind === 'cancelled' ? { code: 0 } : { code: 2, message: r.outcome.kind },
  };
}

/** The export request around `spans`: one resource (service goodput), one scope. */
export const exportRequest = (spans: readonly object[], version: string): string =>
  JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [str('service.name', 'goodput')] },
        scopeSpans: [{ scope: { name: 'goodput', version }, spans }],
      },
    ],
  });

/** Spans the collector said it rejected (a partial success), bounded by what was sent; 0 when its answer says nothing readable. */
export function rejectedSpans(text: string, sent: number): number {
  try {
    const v = (JSON.parse(text) as { partialSuccess?: { rejectedSpans?: unknown } } | null)?.partialSuccess?.rejectedSpans;
    const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : 0;
    return Number.isInteger(n) && n > 0 ? Math.min(n, sent) : 0;
  } catch {
    return 0;
  }
}

/** The default POST: JSON to the URL with the collector's headers, a deadline, the answer read up to otlpResponseBytes. */
export function httpPost(url: string, timeoutMs: number, extra: readonly ExtraHeader[] = []): OtlpPost {
  const headers = { ...Object.fromEntries(extra.map((h) => [h.name.toLowerCase(), h.value])), 'content-type': 'application/json' };
  return async (body) => {
    try {
      const res = await request(url, {
        method: 'POST',
        headers,
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        // Only a partial success's count is read from the answer: past the bound, the rest is not needed.
        if (size > LIMITS.otlpResponseBytes.max) {
          res.body.destroy();
          break;
        }
        chunks.push(chunk as Buffer);
      }
      return { ok: true, status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') };
    } catch (err) {
      return { ok: false, error: httpFailure(err, timeoutMs) };
    }
  };
}

export function otlpExporter(opts: OtlpOptions): OtlpExporter {
  const originMs = opts.originMs ?? performance.timeOrigin;
  const post = opts.post ?? httpPost(opts.url, opts.timeoutMs ?? 5000, opts.headers);
  const freshIds = traceIdSource();
  let queue: Array<{ r: RequestRecord; level: number }> = [];
  const report: OtlpReport = { queued: 0, exported: 0, failed: 0, dropped: 0, lastError: null };
  return {
    add(r, level) {
      if (queue.length >= LIMITS.otlpQueueSpans.max) {
        report.dropped++;
        return;
      }
      queue.push({ r, level });
      report.queued++;
    },
    async flush() {
      const batch = LIMITS.otlpBatchSpans.max;
      while (queue.length > 0) {
        const taken = queue.slice(0, batch);
        queue = queue.slice(batch);
        // A request sent without traceparent still gets a span of its own: fresh ids, joined to nothing.
        const spans = taken.map(({ r, level }) => {
          const ids = r.traceId !== undefined && r.spanId !== undefined ? { traceId: r.traceId, spanId: r.spanId } : freshIds();
          return requestSpan(r, level, ids, originMs);
        });
        const answer = await post(exportRequest(spans, opts.version));
        const failure = !answer.ok ? answer.error : answer.status < 200 || answer.status > 299 ? `HTTP ${answer.status}` : null;
        if (failure !== null || !answer.ok) {
          report.failed += taken.length + queue.length;
          report.lastError = failure;
          queue = [];
          return;
        }
        const rejected = rejectedSpans(answer.text, taken.length);
        report.exported += taken.length - rejected;
        report.failed += rejected;
        if (rejected > 0) report.lastError = `the collector rejected ${rejected} span(s)`;
      }
    },
    report: () => ({ ...report }),
  };
}
