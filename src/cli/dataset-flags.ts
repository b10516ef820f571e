/**
 * `--dataset FILE` with `--column field=col,…`: the sweep's prompts (and their
 * output lengths, where the dataset has them) from a local file, read and
 * checked whole before anything is sent. The prompt list is the sweep's own
 * list source, so the runner, the records and the stored run treat a dataset's
 * prompts as any other list of prompts.
 */
import type { SweepSpecInput } from '../runner/index.js';
import { datasetPrompts, parseColumnMap, readDataset } from '../workload/index.js';
import { asUsageErrors } from './contract-errors.js';
import { badFlag } from './parse-flags.js';

export interface DatasetFlags {
  dataset?: string | undefined;
  column?: string | undefined;
}

/** The spec's prompts from `--dataset`, or nothing without it; `given` says which flags the user set. */
export async function datasetFromFlags(f: DatasetFlags, given: (key: string) => boolean, seed: number): Promise<Pick<SweepSpecInput, 'prompts'>> {
  if (f.dataset === undefined) {
    if (f.column !== undefined) throw badFlag('--column', 'needs --dataset');
    return {};
  }
  if (given('promptTokens')) throw badFlag('--prompt-tokens', 'each prompt comes from the dataset (map input_len= to give lengths instead of text)');
  const columns = f.column === undefined ? null : await asUsageErrors(async () => parseColumnMap(f.column as string));
  const ds = await asUsageErrors(() => readDataset(f.dataset as string, columns));
  const left = [
    ds.skipped.pastLimit > 0 ? `${ds.skipped.pastLimit} rows past the first ${ds.rows.length} not read` : '',
    ds.skipped.unanswered > 0 ? `${ds.skipped.unanswered} conversations without an answered human turn` : '',
  ].filter(Boolean);
  process.stderr.write(
    `dataset ${ds.format}: ${ds.rows.length} prompts${left.length ? ` (left out: ${left.join(', ')})` : ''}; sha256 ${ds.sha256.slice(0, 12)}…\n`,
  );
  return { prompts: { kind: 'list', items: datasetPrompts(ds, seed) } };
}
