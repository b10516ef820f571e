/**
 * An embeddings or rerank result as terminal text: one row per level with its
 * rates and latency percentiles, then every failure reason (server text,
 * sanitised), then the peak the Engine card reports.
 */
import pc from 'picocolors';
import { type PoolingLevel, type PoolingResult, allFailed, poolingExclusion, sanitizeForTerminal as clean } from '../core/index.js';

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** What the table's columns depend on: the run's endpoint, cost and objective (a stored run's spec has them too). */
export type PoolingShape = Pick<PoolingResult['run'], 'endpoint' | 'hourlyCostUsd' | 'latencySlo'>;

function headers(r: { run: PoolingShape }): string[] {
  const items = r.run.endpoint === 'rerank' ? 'Documents/s' : 'Inputs/s';
  return [
    'Concurrency',
    'Requests/s',
    items,
    'Input tok/s',
    'Latency p50 (ms)',
    'p95 (ms)',
    'p99 (ms)',
    ...(r.run.endpoint === 'embeddings' ? ['Dimension'] : []),
    ...(r.run.hourlyCostUsd === null ? [] : ['$/1M input tok']),
    'Failed',
    ...(r.run.latencySlo === null ? [] : [`SLO p${r.run.latencySlo.p} ≤ ${r.run.latencySlo.maxMs} ms`]),
  ];
}

function row(l: PoolingLevel, r: { run: PoolingShape }): string[] {
  // A level where every request failed has no rates, whatever an older stored level says.
  const rate = (x: number | null, digits = 1) => (allFailed(l) ? '—' : fmt(x, digits));
  return [
    String(l.concurrency),
    rate(l.requestsPerS),
    rate(l.itemsPerS),
    rate(l.inputTokensPerS, 0),
    fmt(l.latencyMs?.p50),
    fmt(l.latencyMs?.p95),
    fmt(l.latencyMs?.p99),
    ...(r.run.endpoint === 'embeddings' ? [l.dimension === null ? '—' : String(l.dimension)] : []),
    ...(r.run.hourlyCostUsd === null ? [] : [rate(l.costPerMInputTokensUsd, 4)]),
    `${l.failed}/${l.requests}${allFailed(l) ? ' all failed' : ''}`,
    ...(l.slo === null ? [] : [`${l.slo.holds ? 'holds' : 'misses'} (${l.slo.observedMs === null ? 'failed' : `${fmt(l.slo.observedMs)} ms`})`]),
  ];
}

/** One row per level, then every failure reason: the levels of a run that has no result yet (running or interrupted) show this alone. */
export function renderPoolingLevels(levels: readonly PoolingLevel[], shape: PoolingShape, color: boolean): string[] {
  const c = color ? pc : pc.createColors(false);
  const r = { run: shape };
  const head = headers(r);
  const rows = levels.map((l) => row(l, r));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((x) => (x[i] as string).length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padStart(widths[i] as number)).join('  ');
  const out = [c.bold(line(head))];
  levels.forEach((l, i) =>
    out.push(l.failed > 0 ? c.red(line(rows[i] as string[])) : l.clientBound?.bound === true ? c.yellow(line(rows[i] as string[])) : line(rows[i] as string[])),
  );
  for (const l of levels) {
    for (const f of l.failures) out.push(c.red(`concurrency ${l.concurrency}: ${f.count} failed: ${clean(f.reason)}`));
    if (l.failed === 0 && l.clientBound?.bound === true)
      out.push(c.yellow(`concurrency ${l.concurrency}: client-bound, no peak: ${clean(l.clientBound.reason ?? 'our own client lagged')}`));
  }
  return out;
}

/** The table, failure reasons and peak; `color` adds emphasis for a terminal. */
export function renderPoolingResult(r: PoolingResult, color: boolean): string {
  const c = color ? pc : pc.createColors(false);
  const what =
    r.run.endpoint === 'rerank'
      ? `rerank ${clean(r.run.path)}: a query of ${r.run.queryTokens} tokens with ${r.run.itemsPerRequest} documents of ${r.run.itemTokens} tokens (${clean(r.run.tokenizer.label)})`
      : `embeddings ${clean(r.run.path)}: ${r.run.itemsPerRequest} inputs of ${r.run.itemTokens} tokens per request (${clean(r.run.tokenizer.label)})`;
  if (r.levels.length === 0) {
    // Nothing to tabulate: say so rather than print a table's header alone.
    return [
      `${what}, model ${clean(r.run.model)}`,
      c.red('No level finished: nothing was measured.'),
      ...(r.run.stopReason ? [c.yellow(clean(r.run.stopReason))] : []),
    ].join('\n');
  }
  const out = [`${what}, model ${clean(r.run.model)}`, ...renderPoolingLevels(r.levels, r.run, color)];
  if (r.peak) {
    const tok = r.peak.inputTokensPerS === null ? '' : `, ${r.peak.inputTokensPerS.toFixed(0)} input tok/s`;
    out.push(
      `Engine: peak ${r.peak.itemsPerS.toFixed(1)} ${r.run.endpoint === 'rerank' ? 'documents' : 'inputs'}/s${tok} at concurrency ${r.peak.concurrency} (levels without failures, not client-bound)`,
    );
  } else {
    const why = (l: PoolingLevel) => ((x) => (x === null || x.startsWith('client-bound') ? 'client-bound' : x))(poolingExclusion(l));
    out.push(c.red(`Engine: no peak: no level counts (${r.levels.map((l) => `concurrency ${l.concurrency}: ${why(l)}`).join('; ')})`));
  }
  if (r.capacity) out.push(r.capacity.concurrency === null ? c.red(r.capacity.statement) : `Capacity: ${r.capacity.statement}`);
  if (r.run.stopReason) out.push(c.yellow(clean(r.run.stopReason)));
  return out.join('\n');
}
