/**
 * The workload matrix: prompt lengths × output lengths × cache conditions × image sets, each
 * cell swept over the load levels. Cells run one at a time in the stated order
 * (MATRIX_ORDER), each level of each cell with its own warm-up.
 */
import type { ImageInputs } from '../core/index.js';
import type { CacheCondition } from './cell-prompts.js';

/** The order cells run in, as recorded in the result. */
export const MATRIX_ORDER =
  'prompt length ascending, then output length ascending, then cache condition in the order listed, then images in the order listed; ' +
  'within a cell, load levels ascending, each level with its own warm-up';

export type PromptAxis = { kind: 'synthetic'; tokens: readonly number[] } | { kind: 'corpus' };

export interface MatrixAxes {
  prompts: PromptAxis;
  /** Output caps, tokens, or 'corpus' (each prompt's own expected length). */
  outputTokens: readonly number[] | 'corpus';
  cache: readonly CacheCondition[];
  /** The images every request of a cell carries (null: none); one entry when images are no axis. */
  images?: ReadonlyArray<ImageInputs | null>;
}

/** One cell's coordinates. */
export interface CellSpec {
  index: number;
  /** Exact synthetic length, tokens; null for a corpus. */
  promptTokens: number | null;
  /** Output cap, tokens; null when taken from the corpus. */
  outputTokens: number | null;
  cache: CacheCondition;
  /** Images every request of the cell carries; null for none. */
  images: ImageInputs | null;
}

const ascending = (xs: readonly number[]) => [...new Set(xs)].sort((a, b) => a - b);

/** Every cell, in MATRIX_ORDER. */
export function expandMatrix(axes: MatrixAxes): CellSpec[] {
  const prompts: Array<number | null> = axes.prompts.kind === 'synthetic' ? ascending(axes.prompts.tokens) : [null];
  const outputs: Array<number | null> = axes.outputTokens === 'corpus' ? [null] : ascending(axes.outputTokens);
  const cells: CellSpec[] = [];
  for (const promptTokens of prompts) {
    for (const outputTokens of outputs) {
      for (const cache of axes.cache) {
        for (const images of axes.images ?? [null]) cells.push({ index: cells.length, promptTokens, outputTokens, cache, images });
      }
    }
  }
  return cells;
}
