/**
 * The workload matrix as one table: a row per (cell, level), cells in the order
 * they ran. Pure projection of the cells' level results; the terminal and the
 * result JSON render the same rows.
 */
import type { CellKey, LevelResult, Matrix, MatrixCell } from './result-schema.js';

/** Columns of the matrix table, units in the names. */
export const MATRIX_COLUMNS = [
  'cell',
  'prompt',
  'output tokens',
  'cache',
  'load',
  'throughput tok/s',
  'TTFT p50 ms',
  'TTFT p95 ms',
  'TPOT p50 ms',
  'cached prompt tokens mean',
  'goodput share',
  'goodput req/s',
  'failed',
] as const;

/** "warm 128", "primed 128" or "cold": a cell's cache condition and its shared prefix. */
const cacheWords = (key: CellKey): string => (key.cache === 'cold' ? 'cold' : `${key.cache} ${key.sharedPrefixTokens}`);

/** "synthetic 512 tokens · 256 out · warm (128 shared)", then the images when the cell carried any. */
export function cellLabel(key: CellKey): string {
  const cache = key.cache === 'cold' ? 'cold' : `${key.cache} (${key.sharedPrefixTokens} shared)`;
  return `${key.prompt} · ${key.outputTokens === null ? 'corpus output lengths' : `${key.outputTokens} out`} · ${cache}${key.images === undefined ? '' : ` · ${key.images}`}`;
}

const round = (x: number | null | undefined, digits: number): number | null => (x === null || x === undefined ? null : Number(x.toFixed(digits)));

function row(cell: MatrixCell, l: LevelResult): Array<string | number | null> {
  return [
    cell.index,
    cell.key.images === undefined ? cell.key.prompt : `${cell.key.prompt} + ${cell.key.images}`,
    cell.key.outputTokens,
    cacheWords(cell.key),
    l.load?.label ?? `${l.concurrency} streams`,
    round(l.throughputTokS, 1),
    round(l.ttftMs?.p50, 1),
    round(l.ttftMs?.p95, 1),
    round(l.tpotMs?.p50, 2),
    round(l.cachedPromptTokens?.mean, 1),
    round(l.goodput?.share, 3),
    round(l.goodput?.requestsPerS, 2),
    l.invalid ? `${l.failed} (invalid)` : l.failed,
  ];
}

/** The matrix section of a result: the cells as they ran and the one table. */
export function buildMatrix(order: string, cells: readonly MatrixCell[]): Matrix {
  const rows = cells.flatMap((cell) => cell.levels.map((l) => row(cell, l)));
  return { order, cells: [...cells], table: { columns: [...MATRIX_COLUMNS], rows } };
}
