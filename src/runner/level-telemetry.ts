/**
 * Telemetry around each level, for runSweep: at the start of the run it finds the
 * server's metrics endpoint and names and chooses the GPU source; just before a
 * level's measured requests it times the round trip, scrapes the server and
 * starts the GPU readings; after them it stops both and turns what it got into
 * the level's `gpuMemMiB`, `gpu`, `energy`, `serverTruth`, `specDecode` and a
 * disaggregated server's `disagg` (pool-telemetry.ts), with warnings. Warm-ups
 * fall outside the window, so the server's deltas cover exactly our measured
 * requests; energy keeps only the readings between the first measured send and
 * the last measured end.
 */
import {
  FAMILY_PREFIXES,
  type DisaggLevel,
  type GpuCollection,
  type EnergyLevel,
  type GpuLevel,
  type GpuMem,
  type LevelResult,
  type MetricFamily,
  type RequestRecord,
  type ServerMetricsRun,
  type ServerTruth,
  type SpecDecode,
  type Spread,
  type Warning,
  boundedRttMs,
  compareWithServer,
  describeDisagreement,
  describeQueue,
  describeRoles,
  gpuWithEnergy,
  inServerWindow,
  isOk,
  requiredNames,
  serverFigures,
  measuredWindow,
  summarizeEnergy,
  specDecodeLevel,
  summarizeGpu,
} from '../core/index.js';
import {
  type GpuSource,
  type ServerMetricsSession,
  absentGpuSource,
  measureRttMs,
  openFleetMetrics,
  openPrometheusMetrics,
  openServerMetrics,
  selectGpuSource,
} from '../telemetry/index.js';
import { SweepError } from './errors.js';
import { openPools } from './pool-telemetry.js';
import type { SweepSpec } from './sweep-spec.js';

/** What detection learned about the engine's metrics (its dialect's data), used as hints. */
export interface EngineMetricsHint {
  engine: string;
  label: string;
  metrics: { path: string | null; enabledBy: string | null };
}

/** What the level gets from telemetry. */
export interface LevelTelemetry {
  gpuMem: GpuMem;
  gpu: GpuLevel | null;
  /** Energy over the measured window; absent without a GPU source. */
  energy?: EnergyLevel;
  serverTruth: ServerTruth | null;
  /** Speculative decoding over the level, where the server reports it. */
  specDecode?: SpecDecode;
  /** A disaggregated server's pools over the level, where roles were given. */
  disagg?: DisaggLevel;
  warnings: Warning[];
}

/**
 * The level's energy over its measured window: first measured send to last
 * measured end (ns of the client clock, which GPU readings share), so a
 * reading taken during the warm-up or after the level is outside.
 */
export function measuredEnergy(collected: GpuCollection, records: readonly RequestRecord[]): EnergyLevel {
  return summarizeEnergy(collected, measuredWindow(records));
}

/** The level's telemetry warnings; a disagreement on a client-bound level says that our own delay may explain it. */
export function levelWarnings(t: LevelTelemetry, level: Pick<LevelResult, 'clientBound'>): Warning[] {
  if (!level.clientBound.bound) return t.warnings;
  return t.warnings.map((w) =>
    w.code === 'server-disagrees'
      ? { ...w, message: `${w.message}; this level is client-bound (${level.clientBound.reason}), so our own delay may explain it` }
      : w,
  );
}

export interface RunTelemetry {
  /** For the run record; null when scraping was turned off. */
  serverMetrics: ServerMetricsRun | null;
  /** Awaited just before a level's measured requests. */
  beforeMeasured(): Promise<void>;
  /** After the measured requests of the level named `level` on its axis ("concurrency 8", "speed 4×"), which its warnings start with. */
  /** `loopDelay`: our event-loop delay during the level, part of what a client-side time may be late by. */
  afterMeasured(level: string, records: readonly RequestRecord[], loopDelay?: Spread): Promise<LevelTelemetry>;
  /** Ends the GPU source (a streaming process) when the run ends. */
  close(): Promise<void>;
}

/** The detected engine's metrics path first, its family as the naming hint, and its own advice when nothing answers. */
export function engineHints(e: EngineMetricsHint | undefined): { hint: MetricFamily | null; preferredPath: string | null; missingHint?: string } {
  if (!e) return { hint: null, preferredPath: null };
  const hint = e.engine in FAMILY_PREFIXES ? (e.engine as MetricFamily) : null;
  const missingHint =
    hint === null
      ? undefined
      : e.metrics.path === null
        ? `${e.label} has no Prometheus endpoint`
        : e.metrics.enabledBy !== null
          ? `${e.label} serves it only with ${e.metrics.enabledBy}`
          : undefined;
  return { hint, preferredPath: e.metrics.path, ...(missingHint === undefined ? {} : { missingHint }) };
}

/** The server's metrics session for a run, and what it found; a server without one is said in a warning. */
async function openMetrics(
  spec: SweepSpec,
  metricsHeaders: Record<string, string>,
  warn: (w: Warning) => void,
  engine: EngineMetricsHint | undefined,
): Promise<{ session: ServerMetricsSession | null; serverMetrics: ServerMetricsRun }> {
  let session: ServerMetricsSession | null = null;
  let serverMetrics: ServerMetricsRun;
  const opened = await openMetricsSource(spec, metricsHeaders, engine);
  if (opened.ok) {
    session = opened.session;
    const { map, url } = session;
    const found = Object.fromEntries(Object.values(map.roles).map((c) => [c.role, requiredNames(c.shape).join(' + ')]));
    serverMetrics = { available: true, url, family: map.family, found, missing: map.missing, reason: null };
    if (map.missing.length > 0) {
      warn({
        code: 'metrics-missing',
        message: `the server's metrics (${map.family ?? 'unknown engine'}, ${url}) lack: ${describeRoles(map.missing)}; those figures are not compared`,
      });
    }
  } else {
    serverMetrics = { available: false, url: spec.metricsUrl, family: null, found: {}, missing: [], reason: opened.reason };
    warn({ code: 'metrics-missing', message: `no server-side ground truth: ${opened.reason}` });
  }
  return { session, serverMetrics };
}

/** Where the counters come from: a Prometheus server, a fleet's own endpoints merged, or the one server's endpoint. */
function openMetricsSource(spec: SweepSpec, headers: Record<string, string>, engine: EngineMetricsHint | undefined) {
  const hints = engineHints(engine);
  const intervalMs = spec.metricsIntervalMs;
  // The server's key never goes to a Prometheus server: it is not the server.
  if (spec.prometheus !== null) return openPrometheusMetrics({ ...spec.prometheus, intervalMs, hint: hints.hint });
  if (spec.fleet !== null) return openFleetMetrics({ baseUrls: spec.fleet.urls, intervalMs, headers, ...hints });
  return openServerMetrics({ baseUrl: spec.url, metricsUrl: spec.metricsUrl, intervalMs, headers, ...hints });
}

/**
 * Opens the metrics session and the GPU source for a run; start warnings go to `warn`.
 * @param gpuOverride a source to use instead of choosing one (tests).
 * @throws SweepError('bad-input') for `--gpu-source dcgm` without `--dcgm-url`.
 */
export async function startRunTelemetry(
  spec: SweepSpec,
  headers: Record<string, string>,
  warn: (w: Warning) => void,
  gpuOverride?: GpuSource,
  engine?: EngineMetricsHint,
): Promise<RunTelemetry> {
  if (spec.gpuSource === 'dcgm' && spec.dcgmUrl === null) throw new SweepError('bad-input', 'gpuSource: dcgm needs a DCGM exporter URL (--dcgm-url)');
  // The API key goes only to the server itself, never to a --metrics-url elsewhere.
  const headersFor = (url: string | null) => (url === null || new URL(url).origin === new URL(spec.url).origin ? headers : {});
  const metricsHeaders = headersFor(spec.metricsUrl);
  const { session, serverMetrics } = spec.serverMetrics ? await openMetrics(spec, metricsHeaders, warn, engine) : { session: null, serverMetrics: null };
  const pools = await openPools(spec, headersFor, warn);
  const selection = gpuOverride
    ? { source: gpuOverride, warnings: [] }
    : await selectGpuSource({
        choice: spec.gpuSource,
        dcgmUrl: spec.dcgmUrl,
        // The engine's memory gauge is read from one endpoint: not from a fleet's several or a Prometheus server.
        metrics: session && spec.fleet === null && spec.prometheus === null ? { url: session.url, map: session.map } : null,
        serverUrl: spec.url,
        headers: metricsHeaders,
      });
  for (const message of selection.warnings) warn({ code: 'gpu-source', message });
  const gpu = selection.source ?? absentGpuSource(selection.reason);
  let rttMs: number | null = null;
  let windowStart = 0;

  return {
    serverMetrics,
    close: () => gpu.close(),
    async beforeMeasured() {
      if (session) {
        rttMs = await measureRttMs(spec.url);
        await session.begin();
      }
      await pools?.begin();
      windowStart = performance.now();
      gpu.start();
    },
    async afterMeasured(level, records, loopDelay) {
      const windowMs = performance.now() - windowStart;
      const collected = await gpu.stop();
      const outputTokens = records.filter((r) => !r.warmup && isOk(r)).reduce((a, r) => a + r.outputTokens, 0);
      const { mem, gpu: gpuLevel } = summarizeGpu(collected, { durationMs: windowMs, outputTokens });
      const energy = spec.gpuSource !== 'none' && gpuLevel.available ? measuredEnergy(collected, records) : undefined;
      const gpuOut = spec.gpuSource === 'none' ? null : energy ? gpuWithEnergy(gpuLevel, energy) : gpuLevel;
      const warnings: Warning[] = collected.warnings.map((m) => ({ code: 'gpu-source', message: `${level}: ${m}` }));
      const finished = records.filter((r) => inServerWindow(r) && r.firstTokenNs !== null).length;
      const scrapes = session === null ? null : await session.end(finished);
      // After the server's own scrape, so that every session has ended when an impossible KV rate stops the sweep.
      const pooled = pools === null ? null : await pools.end(level, records);
      if (pooled) warnings.push(...pooled.warnings);
      const own = { gpuMem: mem, gpu: gpuOut, ...(energy && { energy }), ...(pooled === null ? {} : { disagg: pooled.disagg }) };
      if (session === null || scrapes === null) return { ...own, serverTruth: null, warnings };
      if ('error' in scrapes) {
        warnings.push({ code: 'metrics-missing', message: `${level}: no server view: ${scrapes.error}` });
        return { ...own, serverTruth: null, warnings };
      }
      const view = serverView(level, session.url, session.map, scrapes, records, boundedRttMs(rttMs, records), loopDelay?.p99 ?? null);
      return { ...own, ...view, warnings: [...warnings, ...view.warnings] };
    },
  };
}

/** The server's own account of a level (its figures beside ours, queueing, speculative decoding), with the warnings it raises. */
function serverView(
  level: string,
  metricsUrl: string,
  map: ServerMetricsSession['map'],
  scrapes: Exclude<Awaited<ReturnType<ServerMetricsSession['end']>>, { error: string }>,
  records: readonly RequestRecord[],
  rtt: number | null,
  loopDelayP99: number | null,
): { serverTruth: ServerTruth; specDecode?: SpecDecode; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const figures = serverFigures(scrapes.before, scrapes.after, map, scrapes.readings);
  const { comparison, queued } = compareWithServer(records, figures, rtt, loopDelayP99);
  const serverTruth: ServerTruth = { metricsUrl, ...figures, rttMs: rtt, comparison, queued };
  const disagreement = describeDisagreement(comparison);
  if (disagreement) warnings.push({ code: 'server-disagrees', message: `${level}: our figures and the server's disagree: ${disagreement}` });
  if (queued) {
    warnings.push({
      code: 'server-queued',
      message: `${level}: the server queued requests (${describeQueue(serverTruth)}): load shows up as latency, not as errors — the server is saturated at this level`,
    });
  }
  const speculative = specDecodeLevel(scrapes.before, scrapes.after, records);
  if (speculative?.disagreement) {
    warnings.push({
      code: 'spec-decode-disagrees',
      message: `${level}: our tokens per chunk and the server's speculative decoding disagree: ${speculative.disagreement}`,
    });
  }
  return { serverTruth, ...(speculative === null ? {} : { specDecode: speculative.specDecode }), warnings };
}

/**
 * A disagreement with the server's counts on a level that lost a client (a
 * worker that stopped answering) names it: the server kept generating for the
 * lost client's requests, which no longer reached us.
 */
export function withLostShares(w: Warning, level: Pick<LevelResult, 'shares'>): Warning {
  const lost = (level.shares ?? []).filter((s) => s.lost !== null);
  if (w.code !== 'server-disagrees' || lost.length === 0) return w;
  const names = lost.map((s) => `${s.label} (${s.lost})`).join(', ');
  return {
    ...w,
    message: `${w.message}; ${names} ${lost.length === 1 ? 'was' : 'were'} lost mid-level: the server kept generating for ${lost.length === 1 ? 'its' : 'their'} requests, which we no longer counted`,
  };
}
