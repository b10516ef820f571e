/**
 * `goodput reproduce`'s table: one row per published claim — the figure and
 * the interval it holds within, the reproduced figure, and the verdict with
 * the allowance that decided it — then one line a configuration and level
 * for the curve points, and one naming every claim that does not hold. Everything printed from a receipt passes through the terminal
 * guard, as every other table does.
 */
import { sanitizeForTerminal } from '../core/index.js';
import { type ClaimCheck, levelVerdicts } from '../publish/index.js';

const num = (x: number | null, digits: number) => (x === null ? '—' : x.toFixed(Math.min(digits + 1, 6)));

/** Columns padded to their widest cell. */
function columns(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '));
}

export function renderClaims(receiptId: string, claims: readonly ClaimCheck[], color: boolean): string {
  const paint = (ok: boolean, text: string) => (color ? `\x1b[${ok ? 32 : 31}m${text}\x1b[0m` : text);
  const header = ['claim', 'unit', 'published', 'holds within', 'reproduced', 'verdict'];
  const rows = claims.map((c) => [
    sanitizeForTerminal(c.id),
    sanitizeForTerminal(c.unit),
    num(c.published, c.digits),
    `${num(c.low, c.digits)} to ${num(c.high, c.digits)}`,
    num(c.reproduced, c.digits),
    `${c.holds ? 'holds' : 'does not hold'}: ${sanitizeForTerminal(c.why)}`,
  ]);
  const lines = columns([header, ...rows]);
  const failing = claims.filter((c) => !c.holds);
  const verdicts = lines.map((line, i) => (i === 0 ? line : paint(claims[i - 1]?.holds === true, line)));
  const last =
    failing.length === 0
      ? `every claim of ${sanitizeForTerminal(receiptId)} holds (${claims.length} of ${claims.length})`
      : `${failing.length} of ${claims.length} claims of ${sanitizeForTerminal(receiptId)} do not hold: ${failing.map((c) => sanitizeForTerminal(c.id)).join(', ')}`;
  // Each level's curve points, level by level: which levels reproduce and which do not.
  const levels = levelVerdicts(claims).map((v) =>
    paint(
      v.failing.length === 0,
      `${v.configuration} at concurrency ${v.concurrency}: ${v.failing.length === 0 ? `every point holds (${v.claims} of ${v.claims})` : `${v.failing.length} of ${v.claims} points do not hold: ${v.failing.map((id) => sanitizeForTerminal(id)).join(', ')}`}`,
    ),
  );
  return [...verdicts, '', ...(levels.length > 0 ? [...levels, ''] : []), last].join('\n');
}
