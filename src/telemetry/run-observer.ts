/**
 * What watches a run from outside it: the live metrics endpoint and the OTLP
 * span export, fed from the run's hooks (each record as it completes, each
 * level's start and end). Records are counted and queued as they complete;
 * spans are sent after each level, between levels, never while one is measured.
 * Closing exports what is left, then closes the endpoint.
 */
import type { ExtraHeader, RequestRecord } from '../core/index.js';
import { LiveMetrics } from './live-metrics.js';
import { type MetricsServer, serveMetrics } from './metrics-server.js';
import { type OtlpExporter, type OtlpPost, type OtlpReport, otlpExporter } from './otlp-export.js';

/** Where to export and what to serve. */
export interface ObserveTarget {
  /** An OTLP/HTTP traces URL (a collector's /v1/traces), or null. */
  otlp: string | null;
  /** Headers sent with every export (a hosted collector's credentials); absent: none. */
  otlpHeaders?: readonly ExtraHeader[];
  /** The address of the live metrics endpoint, or null. */
  metrics: { host: string; port: number } | null;
}

/** The events the observer reads (a sweep's level-start and level-end, by shape). */
export type ObservedEvent = { kind: string; concurrency?: number; requests?: number };

export interface RunObserver {
  /** The live endpoint's URL, when one is served. */
  metricsUrl: string | null;
  onRecord(r: RequestRecord): void;
  onEvent(e: ObservedEvent): void;
  /** After each level: its spans exported. */
  afterLevel(): Promise<void>;
  /** At the end of the run, whatever happened: the rest exported, the endpoint closed; the spans' fate. */
  close(): Promise<OtlpReport | null>;
}

/** Starts what `target` asks for; rejects (nothing left open) when the endpoint cannot listen. */
export async function startRunObserver(target: ObserveTarget, opts: { version: string; post?: OtlpPost; originMs?: number }): Promise<RunObserver> {
  const live = target.metrics === null ? null : new LiveMetrics();
  const server: MetricsServer | null =
    live === null || target.metrics === null ? null : await serveMetrics(target.metrics.host, target.metrics.port, () => live.text());
  const otlp: OtlpExporter | null =
    target.otlp === null
      ? null
      : otlpExporter({
          url: target.otlp,
          version: opts.version,
          ...(target.otlpHeaders === undefined ? {} : { headers: target.otlpHeaders }),
          ...(opts.post ? { post: opts.post } : {}),
          ...(opts.originMs === undefined ? {} : { originMs: opts.originMs }),
        });
  let level = -1;
  return {
    metricsUrl: server?.url ?? null,
    onRecord(r) {
      live?.record(r);
      otlp?.add(r, level);
    },
    onEvent(e) {
      if (e.kind === 'level-start') {
        level++;
        live?.levelStart(e.concurrency ?? 0, e.requests ?? 0);
      }
      if (e.kind === 'level-end') live?.levelEnd();
    },
    async afterLevel() {
      await otlp?.flush();
    },
    async close() {
      try {
        await otlp?.flush();
      } finally {
        await server?.close();
      }
      return otlp?.report() ?? null;
    },
  };
}
