/**
 * The server's view and the GPU figures of each level as terminal lines, under
 * the results table: what the server's /metrics said beside what we measured,
 * speculative decoding's acceptance beside our tokens per chunk, and utilisation,
 * power and energy with their source (energy over the measured window, or "energy
 * not valid" and why), and a disaggregated server's pools (each pool's figures,
 * the KV moved between them, the TTFT split). Nothing is printed for what was not measured.
 */
import {
  type ComparisonRow,
  type EnergyLevel,
  type LevelResult,
  describeKvTransfer,
  describeRole,
  describeSpecDecode,
  describeTtftSplit,
  sanitizeForTerminal as clean,
} from '../core/index.js';

const f = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? '—' : x.toFixed(d));
const signed = (x: number, d = 1) => `${x >= 0 ? '+' : ''}${x.toFixed(d)}`;

function pair(rows: readonly ComparisonRow[], metric: ComparisonRow['metric'], label: string, d: number, unit: string): string | null {
  const r = rows.find((x) => x.metric === metric);
  if (!r) return null;
  return `${label} ${f(r.server, d)}${unit} (ours ${f(r.client, d)}, ${signed(r.diff, d)}${r.agrees ? '' : ' DISAGREES'})`;
}

function serverLine(l: LevelResult): string | null {
  const t = l.serverTruth;
  if (!t) return null;
  const rows = t.comparison;
  const parts = [
    pair(rows, 'ttft-mean-ms', 'TTFT mean', 1, ' ms'),
    pair(rows, 'itl-mean-ms', `inter-token mean (per ${t.itlPer ?? 'chunk'})`, 2, ' ms'),
    pair(rows, 'generated-tokens', 'tokens', 0, ''),
    t.queueMeanMs === null ? null : `queue mean ${f(t.queueMeanMs)} ms${t.queued ? ' QUEUED' : ''}`,
    t.waiting === null ? null : `waiting ≤${f(t.waiting.max, 0)}`,
    t.kvCacheUsagePct === null ? null : `KV cache ≤${f(t.kvCacheUsagePct.max)}%`,
    t.prefixCacheHitPct === null ? null : `prefix hits ${f(t.prefixCacheHitPct)}%`,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? null : `  ${l.concurrency}: ${parts.join(' · ')}`;
}

/** The level's energy over its measured window: per-token figures when valid, else "energy not valid" and why. */
function energyPart(e: EnergyLevel): string {
  if (!e.valid) return `energy not valid: ${clean(e.reason ?? '')}`;
  const over = `over the ${f(e.windowMs / 1000, 2)} s measured window, ${e.samples} readings every ${f((e.intervalMs ?? 0) / 1000, 2)} s, coverage ${f((e.coverage ?? 0) * 100, 0)}%`;
  const per = [
    `${f(e.joulesPerOutputToken, 3)} J/output token`,
    e.joulesPerInputToken === null ? null : `${f(e.joulesPerInputToken, 4)} J/input token`,
    e.joulesPerTotalToken === null ? null : `${f(e.joulesPerTotalToken, 4)} J/token`,
  ].filter((p): p is string => p !== null);
  return `${per.join(', ')} (${e.method === 'counter' ? 'energy counter' : 'from power'} ${over})`;
}

/** The server's speculative decoding beside our tokens per chunk, for a level where the server reported it. */
function specLine(l: LevelResult): string | null {
  return l.specDecode ? `  ${l.concurrency}: ${describeSpecDecode(l.specDecode)}` : null;
}

/** A level's pools, one line each, then its KV transfer and TTFT split where reported; server text is sanitised. */
function poolLines(l: LevelResult): string[] {
  const d = l.disagg;
  if (!d) return [];
  const lines = d.roles.map((r) => `  ${l.concurrency}: ${describeRole(r)}`);
  if (d.kvTransfer) lines.push(`     ${describeKvTransfer(d.kvTransfer)}`);
  if (d.ttftSplit) lines.push(`     ${describeTtftSplit(d.ttftSplit)}`);
  return lines.map((x) => clean(x));
}

function gpuLine(l: LevelResult): string | null {
  const g = l.gpu;
  if (!g?.available) return null;
  const e = l.energy;
  const parts = [
    g.utilizationPct === null ? null : `utilisation ${f(g.utilizationPct.mean, 0)}%`,
    g.powerW === null ? null : `power ${f(g.powerW.mean, 0)} W`,
    e !== undefined
      ? energyPart(e)
      : g.joulesPerOutputToken === null
        ? null
        : `${f(g.joulesPerOutputToken, 3)} J/output token (${g.energyMethod === 'counter' ? 'energy counter' : 'from power'})`,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? null : `  ${l.concurrency}: ${parts.join(' · ')} (${clean(g.source)})`;
}

/** Lines for the levels that have a server view or GPU figures; empty when none has. */
export function renderTelemetry(levels: readonly LevelResult[]): string[] {
  const server = levels.map(serverLine).filter((x): x is string => x !== null);
  const spec = levels.map(specLine).filter((x): x is string => x !== null);
  const gpu = levels.map(gpuLine).filter((x): x is string => x !== null);
  const pools = levels.flatMap(poolLines);
  const url = levels.find((l) => l.serverTruth)?.serverTruth?.metricsUrl;
  return [
    ...(server.length > 0 ? ['', `Server view (its own metrics at ${clean(url ?? '')}), by level:`, ...server] : []),
    ...(spec.length > 0
      ? ['', "Speculative decoding (the server's own figures over each level; ours: tokens per chunk after the first), by level:", ...spec]
      : []),
    ...(pools.length > 0 ? ['', "Disaggregated pools (each pool's own metrics over the level's measured window), by level:", ...pools] : []),
    ...(gpu.length > 0 ? ['', 'GPU, by level:', ...gpu] : []),
  ];
}
