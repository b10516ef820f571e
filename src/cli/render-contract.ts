/**
 * Terminal text for what a contract run adds to the sweep table: goodput per
 * level against the SLOs, the cost per successful token with every dated
 * input, the matrix as one table, and each cell's curve.
 */
import pc from 'picocolors';
import { type BusinessCost, type LevelResult, type Matrix, type SweepResult, cellLabel, describeSlo, sanitizeForTerminal as clean } from '../core/index.js';
import { renderRepeats } from './render-repeats.js';
import { renderResult } from './render-table.js';

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** Left-aligned first column, right-aligned numbers, two spaces apart. */
export function grid(headers: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  return [line(headers), ...rows.map(line)].join('\n');
}

export function renderGoodput(levels: readonly LevelResult[]): string {
  const rows = levels.flatMap((l) => {
    const g = l.goodput;
    if (!g) return [];
    const checks = g.checks
      .map((c) => `${c.metric.replace('Ms', '')} p${c.p} ${c.observed === null ? '∞' : fmt(c.observed)}/${c.max}${c.holds ? '' : ' ✗'}`)
      .join(' ');
    return [
      [
        l.load?.label ?? `${l.concurrency} streams`,
        String(g.requests),
        String(g.met),
        fmt(g.share === null ? null : g.share * 100),
        fmt(g.requestsPerS, 2),
        fmt(g.tokensPerS),
        checks,
        g.holds ? 'holds' : 'misses',
      ],
    ];
  });
  return rows.length === 0 ? '' : grid(['Load', 'Requests', 'Met SLO', 'Share %', 'Goodput req/s', 'Goodput tok/s', 'SLO observed/max (ms)', 'Verdict'], rows);
}

export function renderCost(cost: BusinessCost): string {
  const head =
    cost.costPer1MSuccessfulUsd === null
      ? `Cost per successful 1M output tokens: no figure (${cost.reason})`
      : `Cost per successful 1M output tokens: $${cost.costPer1MSuccessfulUsd.toFixed(2)}`;
  const inputs = grid(
    ['  input', 'value', 'unit', 'as of / measured'],
    cost.inputs.map((i) => [
      `  ${i.name}`,
      i.unit === '$/h' ? `$${i.value.toFixed(2)}` : i.unit === 'tok/s' ? i.value.toFixed(1) : i.value.toFixed(3),
      i.unit,
      i.asOf,
    ]),
  );
  const perLevel = cost.levels
    .map((l) => `${l.level}: ${l.costPer1MSuccessfulUsd === null ? 'no figure' : `$${l.costPer1MSuccessfulUsd.toFixed(2)}`}${l.note ? ` (${l.note})` : ''}`)
    .join('; ');
  return [head, `  = ${cost.formula}`, inputs, `  per level (goodput tok/s × utilisation): ${perLevel}`, `  basis: ${cost.basis}`].join('\n');
}

export function renderMatrix(m: Matrix): string {
  const table = grid(
    m.table.columns.map((h) => clean(h)),
    m.table.rows.map((r) => r.map((v) => (v === null ? '—' : clean(String(v))))),
  );
  const curves = m.cells.map(
    (cell) =>
      `  cell ${cell.index} ${clean(cellLabel(cell.key))}: ` +
      cell.levels
        .map((l) => `${l.load?.level ?? l.concurrency}→${fmt(l.throughputTokS, 0)} tok/s, TTFT p50 ${fmt(l.ttftMs?.p50)} ms${l.invalid ? ' (invalid)' : ''}`)
        .join(' · '),
  );
  return [`Matrix (${m.order}):`, table, '', 'Curves per cell:', ...curves].join('\n');
}

/** Everything a person reads after `goodput run` or `rerun`. */
export function renderContractResult(result: SweepResult, color: boolean): string {
  const c = color ? pc : pc.createColors(false);
  const parts = [renderResult(result, color, renderRepeats(result) ?? undefined)];
  if (result.contractHash) parts.push('', `Contract sha256 ${result.contractHash} · tokenizer ${clean(result.tokenizer?.label ?? 'not recorded')}`);
  if (result.serverReport) {
    const r = result.serverReport;
    // Versions and reported values are the server's words.
    parts.push(
      clean(
        `Server reports engine ${r.engineVersion ?? 'version not reported'}${r.engineVersionSource ? ` (${r.engineVersionSource})` : ''}; ` +
          r.checks.map((x) => `${x.field} ${x.declared} ${x.status === 'match' ? `= ${x.reported}` : '(not reported)'}`).join(', '),
      ),
    );
  }
  if (result.run.slo) parts.push('', c.bold(`Goodput against ${describeSlo(result.run.slo)}`), renderGoodput(result.levels));
  if (result.businessCost) parts.push('', renderCost(result.businessCost));
  if (result.matrix) parts.push('', renderMatrix(result.matrix));
  return parts.join('\n');
}
