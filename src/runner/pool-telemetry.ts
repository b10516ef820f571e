/**
 * The pools of a disaggregated server around each level, for runSweep: each
 * metrics endpoint given with a role (`--metrics-url prefill=URL …`) is opened
 * once at the start and scraped just before and just after the level's measured
 * requests, as the server's own endpoint is. After the level its figures per
 * role, KV transfer and TTFT split are worked out; a KV rate above the declared
 * link bandwidth is refused as impossible (the sweep stops, exit 2, nothing is
 * written), since no figure of such a run can be trusted.
 */
import { type DisaggLevel, type DisaggSpec, type RequestRecord, type RoleScrapes, type Warning, disaggLevel, inServerWindow } from '../core/index.js';
import { type ServerMetricsSession, openServerMetrics } from '../telemetry/index.js';
import { SweepError } from './errors.js';

/** The pools' part of a level's telemetry. */
export interface PoolTelemetry {
  /** Scrapes every pool before the measured requests. */
  begin(): Promise<void>;
  /**
   * Scrapes every pool after them and works out the level's figures.
   * @throws SweepError('bad-input') when the KV rate is impossible for the declared link.
   */
  end(level: string, records: readonly RequestRecord[]): Promise<{ disagg: DisaggLevel; warnings: Warning[] }>;
}

interface Pool {
  role: RoleScrapes['role'];
  url: string;
  gpus: number | null;
  session: ServerMetricsSession | null;
  /** Why the endpoint could not be opened at the start. */
  reason: string | null;
}

/**
 * Opens each pool's endpoint; one that does not answer is said in a warning and
 * shows its reason on every level instead of figures.
 * @param headersFor the headers an endpoint may be sent (the API key only to the server's own origin)
 */
export async function openPools(
  spec: { disagg: DisaggSpec | null; url: string; metricsIntervalMs: number },
  headersFor: (url: string) => Record<string, string>,
  warn: (w: Warning) => void,
): Promise<PoolTelemetry | null> {
  if (spec.disagg === null) return null;
  const linkGbps = spec.disagg.kvLinkGbps;
  const pools: Pool[] = await Promise.all(
    spec.disagg.roles.map(async (r): Promise<Pool> => {
      const opened = await openServerMetrics({ baseUrl: spec.url, metricsUrl: r.url, intervalMs: spec.metricsIntervalMs, headers: headersFor(r.url) });
      if (opened.ok) return { role: r.role, url: r.url, gpus: r.gpus, session: opened.session, reason: null };
      warn({ code: 'metrics-missing', message: `the ${r.role} pool has no figures: ${opened.reason}` });
      return { role: r.role, url: r.url, gpus: r.gpus, session: null, reason: `not found at the start: ${opened.reason}` };
    }),
  );
  return {
    async begin() {
      await Promise.all(pools.map((p) => p.session?.begin()));
    },
    async end(level, records) {
      const finished = records.filter((r) => inServerWindow(r) && r.firstTokenNs !== null).length;
      const scraped = await Promise.all(
        pools.map(async (p): Promise<RoleScrapes> => {
          const base = { role: p.role, url: p.url, gpus: p.gpus, map: p.session?.map ?? null };
          if (p.session === null) return { ...base, scrapes: { error: p.reason ?? 'not opened' } };
          return { ...base, scrapes: await p.session.end(finished) };
        }),
      );
      const warnings = scraped.flatMap((s): Warning[] =>
        'error' in s.scrapes && s.map !== null ? [{ code: 'metrics-missing', message: `${level}: no ${s.role} pool figures: ${s.scrapes.error}` }] : [],
      );
      const { disagg, problem } = disaggLevel(scraped, records, linkGbps);
      if (problem !== null) throw new SweepError('bad-input', `${level}: ${problem}`);
      return { disagg, warnings };
    },
  };
}
