/**
 * The server's own view of each embeddings or rerank level, for sweepPooling:
 * at the start of the run it finds the server's metrics endpoint as a text
 * sweep does (the detected engine's path first); before each level it times the
 * round trip and scrapes, after it scrapes again and turns the deltas into the
 * level's `serverTruth`, compared with all the level's records (core's
 * whole-compare.ts: the window holds its warm-ups too). A server without a
 * metrics endpoint gives no `serverTruth`, as runs did before it was recorded.
 */
import { type PoolingRecord, type ServerTruth, boundedWholeRttMs, compareWholeWithServer, serverFigures } from '../core/index.js';
import { measureRttMs, openServerMetrics } from '../telemetry/index.js';
import { type EngineMetricsHint, engineHints } from './level-telemetry.js';

/** Gauge readings during a level (running, waiting), ms apart. */
const GAUGE_INTERVAL_MS = 1000;

export interface PoolingTelemetry {
  /** Awaited just before a level's first request. */
  before(): Promise<void>;
  /** After the level: the server's view (null when a scrape failed), or undefined when the server has no metrics endpoint. */
  after(records: readonly PoolingRecord[]): Promise<ServerTruth | null | undefined>;
}

export async function startPoolingTelemetry(url: string, headers: Record<string, string>, engine: EngineMetricsHint): Promise<PoolingTelemetry> {
  const { hint, ...hints } = engineHints(engine);
  const opened = await openServerMetrics({ baseUrl: url, metricsUrl: null, intervalMs: GAUGE_INTERVAL_MS, headers, hint, ...hints });
  if (!opened.ok) return { before: async () => {}, after: async () => undefined };
  const session = opened.session;
  let probeMs: number | null = null;
  return {
    async before() {
      probeMs = await measureRttMs(url);
      await session.begin();
    },
    async after(records) {
      const scrapes = await session.end(records.filter((r) => r.outcome.kind === 'ok').length);
      if ('error' in scrapes) return null;
      const figures = serverFigures(scrapes.before, scrapes.after, session.map, scrapes.readings);
      const rttMs = boundedWholeRttMs(probeMs, records);
      return { metricsUrl: session.url, ...figures, rttMs, ...compareWholeWithServer(records, figures) };
    },
  };
}
