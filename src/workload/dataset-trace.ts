/**
 * A local dataset replayed on its own send times: rows that carry a timestamp
 * column (`--column …,timestamp=COL` in seconds or as a date and time, or
 * `timestamp_ms=COL`) become a trace like any other the replay reads, each
 * request at its offset from the first row's time, with its own prompt (or
 * length) and output length. The checks are a trace's: every time within the
 * horizon, the span at most a year (earliest to latest), times that go backwards sorted (or refused
 * with --strict), a window taken in seconds from the first row; each refusal
 * names the file and the row's line (row index for Parquet). A replay sends
 * every row, so a dataset past the rows one level may send is refused, not cut.
 */
import { LIMITS, limitMessage } from '../core/index.js';
import type { Dataset, DatasetRow } from './dataset-read.js';
import { WorkloadError } from './errors.js';
import { type TimeSpan, type Trace, type TraceOptions, spanWith } from './trace-read.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Where a row sits in its file: its line (its row index in Parquet). */
const rowIn = (ds: Dataset, r: DatasetRow) => `${ds.format === 'parquet' ? 'row index' : 'line'} ${r.line ?? 0}`;
/** A row as a refusal names it. */
const rowAt = (ds: Dataset, r: DatasetRow) => `dataset ${ds.path}: ${rowIn(ds, r)}`;

/** Each row's prompt length: its `input_len`, or its text's words (a trace's prompt of text counts words). */
function promptTokensOf(ds: Dataset, r: DatasetRow): number {
  if (r.inputLen !== undefined) return r.inputLen;
  const n = words(r.prompt ?? '');
  if (n > LIMITS.promptTokens.max) throw new WorkloadError('length', `${rowAt(ds, r)}: ${limitMessage('promptTokens', n, 'prompt words')}`);
  return n;
}

/**
 * The dataset as a trace: rows with their send times, checked as a trace's are.
 * @throws WorkloadError when a row has no time or output length, or its time breaks a trace's rules.
 */
export function datasetTrace(ds: Dataset, o: TraceOptions = {}): Trace {
  if (ds.skipped.pastLimit > 0)
    throw new WorkloadError(
      'length',
      `dataset ${ds.path}: ${limitMessage('requestsPerLevel', ds.rows.length + ds.skipped.pastLimit, 'rows')}: a replay sends every row; keep a slice of the file`,
    );
  const window = o.window ?? null;
  const firstMs = ds.rows[0]?.tMs;
  let lastMs = Number.NEGATIVE_INFINITY;
  let firstBackwards: DatasetRow | null = null;
  let span: TimeSpan | null = null;
  let outsideWindow = 0;
  const kept: Array<DatasetRow & { tMs: number; outputLen: number }> = [];
  for (const r of ds.rows) {
    if (r.tMs === undefined || firstMs === undefined)
      throw new WorkloadError('bad-format', `dataset ${ds.path}: replayed on its own times, it needs --column timestamp=COLUMN (or timestamp_ms=)`);
    if (r.outputLen === undefined)
      throw new WorkloadError('bad-format', `dataset ${ds.path}: a replay takes each request's output length from its row: map output_len=COLUMN`);
    const spanned = spanWith(span, r.tMs, "first row's");
    if ('problem' in spanned) throw new WorkloadError('bad-format', `${rowAt(ds, r)}: ${spanned.problem}`);
    span = spanned;
    if (r.tMs < lastMs) {
      if (o.strict)
        throw new WorkloadError(
          'bad-format',
          `${rowAt(ds, r)}: the timestamp goes backwards (${r.tMs / 1000} s after ${lastMs / 1000} s); without --strict the rows are sorted`,
        );
      firstBackwards ??= r;
    }
    lastMs = Math.max(lastMs, r.tMs);
    const sinceFirstS = (r.tMs - firstMs) / 1000;
    if (window !== null && !(sinceFirstS >= window.startS && sinceFirstS < window.endS)) outsideWindow++;
    else kept.push(r as DatasetRow & { tMs: number; outputLen: number });
  }
  if (kept.length === 0)
    throw new WorkloadError('bad-format', `dataset ${ds.path}: no rows${window ? ` in the window ${window.startS}..${window.endS} s` : ''}`);
  kept.sort((a, b) => a.tMs - b.tMs);
  const w0 = kept[0]?.tMs ?? 0;
  return {
    path: ds.path,
    format: 'dataset',
    sha256: ds.sha256,
    window,
    labels: {},
    warnings: firstBackwards === null ? [] : [`the dataset's timestamps go backwards (first at ${rowIn(ds, firstBackwards)}); its rows were sorted by time`],
    skipped: { failed: 0, outsideWindow },
    requests: kept.map((r) => ({
      // Kept to the microsecond: an epoch time in ms holds no finer fraction in a double.
      atMs: Math.round((r.tMs - w0) * 1e3) / 1e3,
      promptTokens: promptTokensOf(ds, r),
      outputTokens: r.outputLen,
      line: r.line ?? 0,
      ...(r.prompt !== undefined ? { prompt: r.prompt } : {}),
    })),
  };
}
