/**
 * Local dataset files as a sweep's prompts and output lengths, the way AIPerf
 * and GuideLLM users keep them: Parquet (read with hyparquet), JSONL, CSV, or a
 * ShareGPT JSON list (each conversation's first human turn as the prompt, the
 * answer after it as the output length). The format is told from the bytes
 * (Parquet's magic, a JSON list, a JSON line, else a CSV header); `--column
 * prompt=…,output_len=…` names the columns (ShareGPT needs none). Bounded by
 * the limits table: the file's bytes, each text field's bytes, the rows used
 * (the first requestsPerLevel rows: a level never sends more distinct prompts);
 * a bad row is refused naming the file and its line (row index for Parquet).
 * `timestamp=` (seconds or a date) or `timestamp_ms=` gives each row its send
 * time, and the dataset replays as a trace (dataset-trace.ts).
 */
import { LIMITS, limitMessage } from '../core/index.js';
import { FileRefusal, readRegularFile } from '../files/index.js';
import { sha256Hex } from './content-hash.js';
import { WorkloadError } from './errors.js';
import { shown } from './trace-read.js';
import { csvRecords } from './csv-records.js';
import { tracePrompt } from './trace-prompt.js';
import { datasetTimeMs } from './dataset-time.js';

export type DatasetFormat = 'parquet' | 'jsonl' | 'csv' | 'sharegpt';

/** What a column can be mapped to: the prompt's text, or its length to build; the answer's length; the send time (seconds or a date, or ms). */
export const DATASET_FIELDS = ['prompt', 'input_len', 'output_len', 'timestamp', 'timestamp_ms'] as const;
export type DatasetField = (typeof DATASET_FIELDS)[number];
export type ColumnMap = Partial<Record<DatasetField, string>>;

export interface DatasetRow {
  prompt?: string;
  inputLen?: number;
  outputLen?: number;
  /** The send time, ms from whatever zero the dataset uses (the epoch, its start), with its line (row index for Parquet); only with a timestamp column. */
  tMs?: number;
  line?: number;
}

export interface Dataset {
  path: string;
  format: DatasetFormat;
  sha256: string;
  rows: DatasetRow[];
  /** Rows past the bound, not read; ShareGPT conversations with no human turn answered. */
  skipped: { pastLimit: number; unanswered: number };
}

/** `prompt=question,output_len=n`: each field once, from DATASET_FIELDS, a prompt or an input length. */
export function parseColumnMap(text: string): ColumnMap {
  const out: ColumnMap = {};
  for (const part of text.split(',')) {
    const m = /^\s*([a-z_]+)\s*=\s*(\S(?:.*\S)?)\s*$/.exec(part);
    const field = m?.[1] as DatasetField | undefined;
    if (!m || field === undefined || !DATASET_FIELDS.includes(field))
      throw new WorkloadError('bad-format', `--column: '${part.trim()}' is not FIELD=COLUMN with FIELD one of ${DATASET_FIELDS.join(', ')}`);
    if (out[field] !== undefined) throw new WorkloadError('bad-format', `--column: ${field} is mapped twice`);
    out[field] = m[2] as string;
  }
  if ((out.prompt === undefined) === (out.input_len === undefined))
    throw new WorkloadError('bad-format', '--column: map exactly one of prompt (the text) and input_len (a length to build)');
  if (out.timestamp !== undefined && out.timestamp_ms !== undefined)
    throw new WorkloadError('bad-format', '--column: map at most one of timestamp (seconds, or a date and time) and timestamp_ms (milliseconds)');
  return out;
}

const ROWS = LIMITS.requestsPerLevel.max;

/** One row's mapped values, checked: text within the field bound, lengths whole and within their limits, a send time within a trace's horizon. */
function mapRow(where: string, get: (column: string) => unknown, columns: ColumnMap, line = 0): DatasetRow {
  const row: DatasetRow = {};
  if (columns.prompt !== undefined) {
    const v = get(columns.prompt);
    if (typeof v !== 'string' || v.trim() === '')
      throw new WorkloadError('bad-format', `${where}: prompt (column "${columns.prompt}") ${shown(v)} is not text`);
    if (Buffer.byteLength(v) > LIMITS.datasetFieldBytes.max)
      throw new WorkloadError('length', `${where}: ${limitMessage('datasetFieldBytes', Buffer.byteLength(v), `prompt (column "${columns.prompt}")`)}`);
    row.prompt = v;
  }
  const length = (field: 'input_len' | 'output_len', limit: 'promptTokens' | 'outputTokens') => {
    const column = columns[field] as string;
    const v = get(column);
    const n = typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
      throw new WorkloadError(
        'bad-format',
        `${where}: ${field} (column "${column}") ${shown(typeof v === 'bigint' ? String(v) : v)} is not a whole number of at least 1`,
      );
    if (n > LIMITS[limit].max) throw new WorkloadError('length', `${where}: ${limitMessage(limit, n, `${field} (column "${column}")`)}`);
    return n;
  };
  if (columns.input_len !== undefined) row.inputLen = length('input_len', 'promptTokens');
  if (columns.output_len !== undefined) row.outputLen = length('output_len', 'outputTokens');
  const timed = columns.timestamp !== undefined ? ('timestamp' as const) : columns.timestamp_ms !== undefined ? ('timestamp_ms' as const) : null;
  if (timed !== null) {
    row.tMs = datasetTimeMs(where, timed, columns[timed] as string, get(columns[timed] as string));
    row.line = line;
  }
  return row;
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readRegularFile(path, { bytes: LIMITS.datasetFileBytes.max, what: LIMITS.datasetFileBytes.what });
  } catch (err) {
    const refusal = err instanceof FileRefusal && err.refused ? err : null;
    throw new WorkloadError(
      refusal?.code === 'EFBIG' ? 'length' : 'unreadable',
      `dataset ${refusal ? refusal.message : `${path}: cannot read (${(err as NodeJS.ErrnoException).code ?? String(err)})`}`,
    );
  }
}

/** Reads and checks a dataset. @throws WorkloadError naming the file and the line or row. */
export async function readDataset(path: string, columns: ColumnMap | null): Promise<Dataset> {
  const bytes = await readBytes(path);
  const sha256 = sha256Hex(bytes);
  const need = (format: string): ColumnMap => {
    if (columns === null)
      throw new WorkloadError('bad-format', `dataset ${path}: a ${format} dataset needs --column prompt=COLUMN (or input_len=COLUMN), and output_len=COLUMN`);
    return columns;
  };
  if (bytes.subarray(0, 4).toString('latin1') === 'PAR1') return { path, sha256, ...(await parquetRows(path, bytes, need('Parquet'))) };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new WorkloadError('bad-format', `dataset ${path}: neither Parquet nor UTF-8 text`);
  }
  const head = text.trimStart();
  if (head.startsWith('[')) {
    if (columns !== null)
      throw new WorkloadError(
        'bad-format',
        `dataset ${path}: a ShareGPT JSON list takes no --column (its first human turn is the prompt, the answer the output length)`,
      );
    return { path, sha256, ...shareGptRows(path, text) };
  }
  return { path, sha256, ...(head.startsWith('{') ? jsonlRows(path, text, need('JSONL')) : csvRows(path, text, need('CSV'))) };
}

type Read = Pick<Dataset, 'format' | 'rows' | 'skipped'>;

async function parquetRows(path: string, bytes: Buffer, columns: ColumnMap): Promise<Read> {
  // Loaded when a Parquet file is read, not with every command.
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let total: number;
  let names: string[];
  try {
    const meta = parquetMetadata(file);
    total = Number(meta.num_rows);
    names = meta.schema.slice(1).map((s) => s.name);
  } catch (err) {
    throw new WorkloadError('bad-format', `dataset ${path}: not a Parquet file hyparquet can read (${(err as Error).message})`);
  }
  const wanted = [...new Set(Object.values(columns))];
  const missing = wanted.filter((c) => !names.includes(c));
  if (missing.length > 0)
    throw new WorkloadError('bad-format', `dataset ${path}: no column ${missing.map((c) => `"${c}"`).join(', ')} (its columns: ${names.join(', ')})`);
  let objects: Array<Record<string, unknown>>;
  try {
    objects = await parquetReadObjects({ file, columns: wanted, rowStart: 0, rowEnd: Math.min(total, ROWS) });
  } catch (err) {
    throw new WorkloadError('bad-format', `dataset ${path}: its rows cannot be read (${(err as Error).message})`);
  }
  const rows = objects.map((o, i) => mapRow(`dataset ${path}: row index ${i}`, (c) => o[c], columns, i));
  return { format: 'parquet', rows, skipped: { pastLimit: Math.max(0, total - ROWS), unanswered: 0 } };
}

function jsonlRows(path: string, text: string, columns: ColumnMap): Read {
  const rows: DatasetRow[] = [];
  let pastLimit = 0;
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    if (rows.length >= ROWS) {
      pastLimit++;
      continue;
    }
    const where = `dataset ${path}: line ${i + 1}`;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      o = null;
    }
    if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new WorkloadError('bad-format', `${where}: not a JSON object`);
    rows.push(mapRow(where, (c) => (o as Record<string, unknown>)[c], columns, i + 1));
  }
  return { format: 'jsonl', rows, skipped: { pastLimit, unanswered: 0 } };
}

function csvRows(path: string, text: string, columns: ColumnMap): Read {
  const rows: DatasetRow[] = [];
  let header: string[] | null = null;
  let pastLimit = 0;
  for (const { fields, line } of csvRecords(`dataset ${path}`, text, LIMITS.datasetFieldBytes.max)) {
    if (header === null) {
      header = fields;
      const missing = [...new Set(Object.values(columns))].filter((c) => !(header as string[]).includes(c));
      if (missing.length > 0)
        throw new WorkloadError('bad-format', `dataset ${path}: line ${line}: the CSV header has no column ${missing.map((c) => `"${c}"`).join(', ')}`);
      continue;
    }
    if (rows.length >= ROWS) {
      pastLimit++;
      continue;
    }
    const where = `dataset ${path}: line ${line}`;
    if (fields.length !== header.length) throw new WorkloadError('bad-format', `${where}: ${fields.length} fields where the header has ${header.length}`);
    const h = header;
    rows.push(mapRow(where, (c) => fields[h.indexOf(c)], columns, line));
  }
  if (rows.length === 0) throw new WorkloadError('bad-format', `dataset ${path}: no rows below its header`);
  return { format: 'csv', rows, skipped: { pastLimit, unanswered: 0 } };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** ShareGPT: each conversation's first human message answered by the model; the answer's words as its output length. */
function shareGptRows(path: string, text: string): Read {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new WorkloadError('bad-format', `dataset ${path}: a JSON list that does not parse`);
  }
  const list = data as unknown[];
  const rows: DatasetRow[] = [];
  let unanswered = 0;
  let seen = 0;
  for (const [i, item] of list.entries()) {
    if (rows.length >= ROWS) break;
    seen++;
    const where = `dataset ${path}: conversation ${i + 1}`;
    const conv = (item as { conversations?: unknown } | null)?.conversations;
    if (!Array.isArray(conv)) throw new WorkloadError('bad-format', `${where}: no "conversations" list`);
    const at = conv.findIndex((m: { from?: unknown } | null) => m?.from === 'human' || m?.from === 'user');
    const [ask, answer] = [conv[at], conv[at + 1]] as Array<{ from?: unknown; value?: unknown } | undefined>;
    if (at < 0 || (answer?.from !== 'gpt' && answer?.from !== 'assistant')) {
      unanswered++;
      continue;
    }
    rows.push(
      mapRow(
        where,
        (c) =>
          c === 'prompt' ? ask?.value : typeof answer.value === 'string' ? Math.max(1, Math.min(words(answer.value), LIMITS.outputTokens.max)) : answer.value,
        {
          prompt: 'prompt',
          output_len: 'answer',
        },
      ),
    );
  }
  if (rows.length === 0) throw new WorkloadError('bad-format', `dataset ${path}: no conversation has a human message followed by an answer`);
  return { format: 'sharegpt', rows, skipped: { pastLimit: list.length - seen, unanswered } };
}

/**
 * The dataset as a sweep's prompt list, used in order: each row's text (or `input_len` words drawn
 * from the seed, each row's own) and its output length where the dataset gives one.
 */
export function datasetPrompts(ds: Dataset, seed: number): Array<{ text: string; outputTokens?: number }> {
  return ds.rows.map((r, i) => ({
    text: r.prompt ?? tracePrompt({ p: r.inputLen as number }, LIMITS.promptTokens.max, `d${seed}`, i),
    ...(r.outputLen === undefined ? {} : { outputTokens: r.outputLen }),
  }));
}
