/**
 * Two results side by side — only after the differences between their
 * contracts are printed. Levels are matched by their value on the load axis.
 */
import { describeDifferences, diffContracts } from '../contract/index.js';
import type { LevelResult, SweepResult } from '../core/index.js';
import { grid } from './render-contract.js';

const fmt = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

function change(a: number | null | undefined, b: number | null | undefined, digits = 1): string {
  if (a === null || a === undefined || b === null || b === undefined) return `${fmt(a, digits)} → ${fmt(b, digits)}`;
  const pct = a === 0 ? '' : ` (${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)}%)`;
  return `${fmt(a, digits)} → ${fmt(b, digits)}${pct}`;
}

/** The contract differences first ("same contract" when there are none in what is hashed), as lines. */
export function contractHeader(a: SweepResult, b: SweepResult): string[] {
  const diffs = diffContracts(a.contract ?? {}, b.contract ?? {});
  const where = diffs.filter((d) => d.path === 'server.url' || d.path === 'server.apiKeyEnv');
  const what = diffs.filter((d) => !where.includes(d));
  const lines: string[] = [];
  if (a.contractHash && a.contractHash === b.contractHash && what.length === 0) lines.push(`Same contract (sha256 ${a.contractHash}).`);
  else lines.push(`The contracts differ (sha256 ${a.contractHash ?? 'none'} vs ${b.contractHash ?? 'none'}); read these differences before any number below:`, ...describeDifferences(what));
  if (where.length > 0) lines.push('Location differs (not part of the contract):', ...describeDifferences(where));
  return lines;
}

const levelKey = (l: LevelResult) => l.load?.level ?? l.concurrency;

const isInvalid = (l: LevelResult | undefined) => l !== undefined && (l.invalid || l.failed > 0);

/** "0 / 3 (invalid: 3 failed)": each side's failures, an invalid side marked. */
function failedCell(a: LevelResult | undefined, b: LevelResult | undefined): string {
  const side = (l: LevelResult | undefined) => (l === undefined ? '—' : isInvalid(l) ? `${l.failed} (invalid: ${l.failed} failed)` : String(l.failed));
  return `${side(a)} / ${side(b)}`;
}

/** Contract differences, then one row per level present in either result. */
export function renderComparison(a: SweepResult, b: SweepResult, names: [string, string]): string {
  const keys = [...new Set([...a.levels, ...b.levels].map(levelKey))].sort((x, y) => x - y);
  const rows = keys.map((k) => {
    const la = a.levels.find((l) => levelKey(l) === k);
    const lb = b.levels.find((l) => levelKey(l) === k);
    // Like the web comparison: no change column when either side is invalid.
    const invalid = isInvalid(la) || isInvalid(lb);
    const cell = (x: number | null | undefined, y: number | null | undefined, digits = 1) =>
      invalid ? `${fmt(x, digits)} → ${fmt(y, digits)} (—, invalid level)` : change(x, y, digits);
    return [
      String(k), `${la?.requests ?? '—'} / ${lb?.requests ?? '—'}`, failedCell(la, lb), cell(la?.throughputTokS, lb?.throughputTokS),
      cell(la?.ttftMs?.p50, lb?.ttftMs?.p50), cell(la?.tpotMs?.p50, lb?.tpotMs?.p50, 2), cell(la?.e2eMs?.p50, lb?.e2eMs?.p50, 0),
      cell(la?.goodput?.share, lb?.goodput?.share, 3),
    ];
  });
  return [
    `Comparing ${names[0]} → ${names[1]}`,
    ...contractHeader(a, b),
    '',
    grid(['Level', 'Requests', 'Failed', 'Throughput tok/s', 'TTFT p50 ms', 'TPOT p50 ms', 'e2e p50 ms', 'Goodput share'], rows),
  ].join('\n');
}
