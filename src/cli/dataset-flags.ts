/**
 * `--dataset FILE` with `--column field=col,…`: the sweep's prompts (and their
 * output lengths, where the dataset has them) from a local file, read and
 * checked whole before anything is sent. The prompt list is the sweep's own
 * list source, so the runner, the records and the stored run treat a dataset's
 * prompts as any other list of prompts. A dataset with a send-time column
 * is replayed by `goodput replay FILE --column …` (readReplayDataset).
 */
import type { SweepSpecInput } from '../runner/index.js';
import { type Trace, type TraceOptions, datasetPrompts, datasetTrace, parseColumnMap, readDataset } from '../workload/index.js';
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
  // A sweep's levels are its own load (streams, a rate): rows sent at their own times are a replay's, whose levels are speeds.
  const timed = columns?.timestamp !== undefined ? 'timestamp' : columns?.timestamp_ms !== undefined ? 'timestamp_ms' : null;
  if (timed !== null)
    throw badFlag('--column', `${timed}= sends each row at its own time: replay the dataset with goodput replay FILE --column … (its levels are speeds)`);
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

/**
 * `goodput replay FILE --column …,timestamp=COL`: the file read as a dataset whose rows carry their send
 * times, as the trace the replay sends. The mapping must give each row its time and its output length.
 */
export async function readReplayDataset(path: string, column: string, o: TraceOptions): Promise<Trace> {
  const columns = await asUsageErrors(async () => parseColumnMap(column));
  if (columns.timestamp === undefined && columns.timestamp_ms === undefined)
    throw badFlag('--column', 'a replay sends each row at its own time: map timestamp=COLUMN (seconds, or a date and time) or timestamp_ms=COLUMN');
  if (columns.output_len === undefined) throw badFlag('--column', "a replay takes each request's output length from its row: map output_len=COLUMN");
  const ds = await asUsageErrors(() => readDataset(path, columns));
  return asUsageErrors(async () => datasetTrace(ds, o));
}
