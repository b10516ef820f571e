/**
 * Request traces to replay, in the three formats the field shares, detected
 * from the first line and validated line by line (an error names the line):
 *
 * - Mooncake-style JSONL: `timestamp` (ms), `input_length`, `output_length`,
 *   optional `hash_ids` (one id per block of `blockTokens` prompt tokens; equal
 *   ids are equal text, i.e. a shared prefix);
 * - BurstGPT-style CSV: `Timestamp` (s), `Request tokens`, `Response tokens`;
 *   a row whose response is 0 tokens is a failure in the log: skipped, counted;
 *   other columns are kept as labels (counted per value);
 * - Azure LLM inference trace CSV: `TIMESTAMP` (a date and time, as the published
 *   files write it), `ContextTokens`, `GeneratedTokens`; a CSV is told apart by its header;
 * - goodput JSONL: `{ "t": seconds, "promptTokens" | "prompt", "outputTokens" }`.
 *
 * Times become offsets from the first request of the window taken. A timestamp
 * that goes backwards is sorted, with a warning naming the first such line, or
 * refused with `strict`.
 */
import { LIMITS, limitMessage } from '../core/index.js';
import { WorkloadError } from './errors.js';
import { forEachTraceLine } from './trace-lines.js';

/** `dataset`: a local dataset whose rows carry their send times (dataset-trace.ts), replayed as a trace. */
export type TraceFormat = 'mooncake' | 'burstgpt' | 'azure' | 'goodput' | 'dataset';

/** Mooncake's block size: one hash id per 512 prompt tokens. */
export const DEFAULT_BLOCK_TOKENS = 512;

export interface TraceRequest {
  /** Offset from the window's first request, ms. */
  atMs: number;
  promptTokens: number;
  outputTokens: number;
  /** Block ids of the prompt (Mooncake); equal ids share that block's text. */
  hashIds?: number[];
  /** The literal prompt (goodput format). */
  prompt?: string;
  /** Where it came from. */
  line: number;
}

export interface Trace {
  path: string;
  format: TraceFormat;
  sha256: string;
  requests: TraceRequest[];
  /** The window taken, seconds from the trace's first request (its first line's time); null: all of it. */
  window: { startS: number; endS: number } | null;
  /** Rows left out: failures in the log (BurstGPT), and requests outside the window. */
  skipped: { failed: number; outsideWindow: number };
  /** Label columns and how many requests carry each value (BurstGPT's Model, Log Type). */
  labels: Record<string, Record<string, number>>;
  warnings: string[];
}

export interface TraceOptions {
  window?: { startS: number; endS: number } | null;
  /** Refuse a timestamp that goes backwards instead of sorting. */
  strict?: boolean;
}

/** The most distinct values kept per label column (the rest are counted as "other"). */
const MAX_LABEL_VALUES = 32;

interface Row {
  tMs: number;
  promptTokens: number;
  outputTokens: number;
  hashIds?: number[];
  prompt?: string;
  failed?: boolean;
  labels?: Record<string, string>;
}

/** A value from the file as shown in a message: JSON, cut at 40 characters (a line may hold a megabyte). */
export const shown = (v: unknown): string => {
  const t = JSON.stringify(v) ?? 'missing';
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
};

/** A trace time (ms, from whatever zero the file uses: epoch or its start) is at most this far from 0: ~317 years. */
export const TRACE_HORIZON_MS = 1e13;
/** A trace's requests fall within this span, earliest to latest, ms (a year). */
const TRACE_SPAN_MS = LIMITS.traceSpanDays.max * 86_400_000;

/** The times a trace's rows have reached so far: the first row's, the earliest and the latest. */
export interface TimeSpan {
  firstMs: number;
  minMs: number;
  maxMs: number;
}

/**
 * The span with a row's time in it, or the words of why that row stretches it past TRACE_SPAN_MS. The span is
 * earliest to latest, whichever rows hold them: a row far before the first sorts to the front, and checked
 * against the first row alone it would push every other row years later. `first` names the first row ("first request").
 */
export function spanWith(span: TimeSpan | null, tMs: number, first: string): TimeSpan | { problem: string } {
  if (span === null) return { firstMs: tMs, minMs: tMs, maxMs: tMs };
  const next = { firstMs: span.firstMs, minMs: Math.min(span.minMs, tMs), maxMs: Math.max(span.maxMs, tMs) };
  if (next.maxMs - next.minMs <= TRACE_SPAN_MS) return next;
  const days = Math.round((next.maxMs - next.minMs) / 86_400_000);
  const side =
    tMs >= span.maxMs
      ? `after the ${span.minMs === span.firstMs ? first : 'earliest row'}`
      : `before the ${span.maxMs === span.firstMs ? first : 'latest row'}`;
  return { problem: `the timestamp is ${days} days ${side}, past the ${LIMITS.traceSpanDays.max} days a trace may span; take a --window` };
}

const whole = (where: string, name: string, v: unknown, min: number, limit?: 'promptTokens' | 'outputTokens'): number => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min)
    throw new WorkloadError('bad-format', `${where}: ${name} ${shown(v)} is not a whole number${min > 0 ? ` of at least ${min}` : ''}`);
  if (limit && n > LIMITS[limit].max) throw new WorkloadError('length', `${where}: ${limitMessage(limit, n, name)}`);
  return n;
};
const time = (where: string, name: string, v: unknown): number => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new WorkloadError('bad-format', `${where}: ${name} ${shown(v)} is not a number`);
  return n;
};

export function jsonObject(where: string, text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new WorkloadError('bad-format', `${where}: not a JSON object`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new WorkloadError('bad-format', `${where}: not a JSON object`);
  return v as Record<string, unknown>;
}

const PARSERS: Record<Exclude<TraceFormat, 'burstgpt' | 'azure' | 'dataset'>, (where: string, o: Record<string, unknown>) => Row> = {
  mooncake(where, o) {
    const row: Row = {
      tMs: time(where, 'timestamp', o['timestamp']),
      promptTokens: whole(where, 'input_length', o['input_length'], 1, 'promptTokens'),
      outputTokens: whole(where, 'output_length', o['output_length'], 1, 'outputTokens'),
    };
    if (o['hash_ids'] !== undefined) {
      const ids = o['hash_ids'];
      if (!Array.isArray(ids)) throw new WorkloadError('bad-format', `${where}: hash_ids must be a list of whole numbers`);
      // Each id names a block of at least one prompt token.
      if (ids.length > row.promptTokens)
        throw new WorkloadError('bad-format', `${where}: hash_ids holds ${ids.length} ids, more than its ${row.promptTokens} prompt tokens could fill`);
      row.hashIds = ids.map((id, i) => whole(where, `hash_ids[${i}]`, id, 0));
    }
    return row;
  },
  goodput(where, o) {
    for (const k of Object.keys(o)) {
      if (k === 'session' || k === 'turn' || k === 'messages')
        throw new WorkloadError('bad-format', `${where}: "${k}" (a multi-turn session) cannot be replayed as a trace of independent requests`);
      if (!['t', 'promptTokens', 'prompt', 'outputTokens'].includes(k))
        throw new WorkloadError('bad-format', `${where}: unknown key "${k}" (expected t, promptTokens or prompt, outputTokens)`);
    }
    const prompt = o['prompt'];
    if (prompt !== undefined && (typeof prompt !== 'string' || prompt === '')) throw new WorkloadError('bad-format', `${where}: prompt must be non-empty text`);
    if ((prompt === undefined) === (o['promptTokens'] === undefined))
      throw new WorkloadError('bad-format', `${where}: give exactly one of promptTokens and prompt`);
    const words = typeof prompt === 'string' ? prompt.split(/\s+/).filter(Boolean).length : 0;
    return {
      tMs: time(where, 't', o['t']) * 1000,
      promptTokens:
        prompt === undefined ? whole(where, 'promptTokens', o['promptTokens'], 1, 'promptTokens') : whole(where, 'prompt words', words, 1, 'promptTokens'),
      outputTokens: whole(where, 'outputTokens', o['outputTokens'], 1, 'outputTokens'),
      ...(typeof prompt === 'string' ? { prompt } : {}),
    };
  },
};

/** BurstGPT's required columns. */
const CSV_COLUMNS = ['Timestamp', 'Request tokens', 'Response tokens'] as const;
/** The Azure LLM inference traces' columns (2023 and 2024 releases). */
const AZURE_COLUMNS = ['TIMESTAMP', 'ContextTokens', 'GeneratedTokens'] as const;

/**
 * An Azure trace's time, ms since the epoch: `2023-11-16 18:15:46.6805900` (2023: no zone, UTC) or
 * `2024-05-10 00:00:00.009930+00:00` (2024); up to nine fraction digits, kept to the microsecond.
 */
export function azureTime(where: string, v: string | undefined, name = 'TIMESTAMP'): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})?$/.exec(v ?? '');
  const [y, mo, d, h, mi, sec] = (m?.slice(1, 7) ?? []).map(Number) as number[];
  const base = m ? Date.UTC(y as number, (mo as number) - 1, d, h, mi, sec) : NaN;
  const inRange =
    m !== null &&
    (mo as number) >= 1 &&
    (mo as number) <= 12 &&
    (d as number) >= 1 &&
    (d as number) <= 31 &&
    (h as number) < 24 &&
    (mi as number) < 60 &&
    (sec as number) < 61;
  if (!inRange || !Number.isFinite(base))
    throw new WorkloadError('bad-format', `${where}: ${name} ${shown(v)} is not a date and time like 2023-11-16 18:15:46.6805900`);
  const fraction = Math.round(Number(`0.${(m[7] ?? '0').padEnd(6, '0').slice(0, 6)}`) * 1e6) / 1e3;
  const zone = m[8] === undefined || m[8] === 'Z' ? 0 : (m[8].startsWith('-') ? -1 : 1) * (Number(m[8].slice(1, 3)) * 60 + Number(m[8].slice(4, 6))) * 60_000;
  return base + fraction - zone;
}

/** Splits one CSV line (RFC 4180 quotes; no newline inside a field). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else v += line[i++];
      }
      out.push(v);
      i++;
    } else {
      const end = line.indexOf(',', i);
      out.push(line.slice(i, end < 0 ? line.length : end).trim());
      i = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return out;
}

/** Reads and validates a trace, streaming. @throws WorkloadError naming the file and line. */
export async function readTrace(path: string, o: TraceOptions = {}): Promise<Trace> {
  const window = o.window ?? null;
  const rows: Array<Row & { line: number }> = [];
  let format: Exclude<TraceFormat, 'dataset'> | null = null;
  let header: string[] = [];
  let firstBackwards: number | null = null;
  let lastMs = Number.NEGATIVE_INFINITY;
  let failed = 0;
  let outsideWindow = 0;
  let firstMs: number | null = null;
  let span: TimeSpan | null = null;
  const labels: Record<string, Record<string, number>> = {};
  const limit = LIMITS.requestsPerLevel.max;
  const { sha256 } = await forEachTraceLine(path, (text, line) => {
    const where = `trace ${path}: line ${line}`;
    if (text.trim() === '') return;
    if (format === null) {
      if (text.trimStart().startsWith('{')) {
        const first = jsonObject(where, text);
        format = 'timestamp' in first || 'input_length' in first ? 'mooncake' : 't' in first ? 'goodput' : null;
        if (format === null)
          throw new WorkloadError(
            'bad-format',
            `${where}: a JSON line with neither "timestamp" (Mooncake) nor "t" (goodput): not a trace format goodput reads`,
          );
      } else if (text.trimStart().startsWith('[')) {
        // A JSON list has no send times: ShareGPT's conversations are prompts or sessions, not a trace.
        throw new WorkloadError(
          'bad-format',
          `${where}: a JSON list (ShareGPT?) has no send times: its first turns are a sweep's prompts (goodput sweep --dataset FILE), its conversations sessions (goodput sessions --conversations FILE)`,
        );
      } else {
        header = csvFields(text);
        format = header.includes(AZURE_COLUMNS[0]) ? 'azure' : 'burstgpt';
        const columns: readonly string[] = format === 'azure' ? AZURE_COLUMNS : CSV_COLUMNS;
        const missing = columns.filter((c) => !header.includes(c));
        if (missing.length > 0)
          throw new WorkloadError(
            'bad-format',
            `${where}: the CSV header lacks ${missing.map((c) => `"${c}"`).join(', ')} (${format === 'azure' ? 'Azure' : 'BurstGPT'} columns: ${columns.join(', ')})`,
          );
        return;
      }
    }
    let row: Row;
    if (format === 'azure') {
      const f = csvFields(text);
      if (f.length !== header.length) throw new WorkloadError('bad-format', `${where}: ${f.length} fields where the header has ${header.length}`);
      const col = (name: string) => f[header.indexOf(name)];
      row = {
        tMs: azureTime(where, col('TIMESTAMP')),
        promptTokens: whole(where, 'ContextTokens', col('ContextTokens'), 1, 'promptTokens'),
        outputTokens: whole(where, 'GeneratedTokens', col('GeneratedTokens'), 1, 'outputTokens'),
      };
    } else if (format === 'burstgpt') {
      const f = csvFields(text);
      if (f.length !== header.length) throw new WorkloadError('bad-format', `${where}: ${f.length} fields where the header has ${header.length}`);
      const col = (name: string) => f[header.indexOf(name)];
      const outputTokens = whole(where, 'Response tokens', col('Response tokens'), 0, 'outputTokens');
      row = {
        tMs: time(where, 'Timestamp', col('Timestamp')) * 1000,
        promptTokens: whole(where, 'Request tokens', col('Request tokens'), 1, 'promptTokens'),
        outputTokens,
        failed: outputTokens === 0,
      };
      row.labels = Object.fromEntries(
        header.filter((h) => !(CSV_COLUMNS as readonly string[]).includes(h) && h !== 'Total tokens').map((h) => [h, col(h) ?? '']),
      );
    } else {
      row = PARSERS[format](where, jsonObject(where, text));
    }
    // Past the horizon a time is no trace's (and a timer could not wait for it): refused at its line.
    if (!(Math.abs(row.tMs) <= TRACE_HORIZON_MS))
      throw new WorkloadError(
        'bad-format',
        `${where}: the timestamp ${row.tMs / 1000} s is past the horizon of ${TRACE_HORIZON_MS / 1000} s a trace's times may reach`,
      );
    const spanned = spanWith(span, row.tMs, 'first request');
    if ('problem' in spanned) throw new WorkloadError('bad-format', `${where}: ${spanned.problem}`);
    span = spanned;
    if (row.tMs < lastMs) {
      if (o.strict)
        throw new WorkloadError(
          'bad-format',
          `${where}: the timestamp goes backwards (${row.tMs / 1000} s after ${lastMs / 1000} s); without --strict the trace is sorted`,
        );
      firstBackwards ??= line;
    }
    lastMs = Math.max(lastMs, row.tMs);
    firstMs ??= row.tMs;
    const sinceFirstS = (row.tMs - firstMs) / 1000;
    if (window !== null && !(sinceFirstS >= window.startS && sinceFirstS < window.endS)) {
      outsideWindow++;
      return;
    }
    if (row.failed) {
      failed++;
      return;
    }
    for (const [k, v] of Object.entries(row.labels ?? {})) {
      const counts = (labels[k] ??= {});
      const key = v in counts || Object.keys(counts).length < MAX_LABEL_VALUES ? v : 'other';
      counts[key] = (counts[key] ?? 0) + 1;
    }
    delete row.labels;
    rows.push({ ...row, line });
    if (rows.length > limit) {
      throw new WorkloadError(
        'length',
        `trace ${path}: ${limitMessage('requestsPerLevel', rows.length, window ? 'requests in the window' : 'requests')} (at line ${line}); take ${window ? 'a smaller' : 'a slice with'} --window START..END`,
      );
    }
  });
  if (format === null || (rows.length === 0 && failed === 0 && outsideWindow === 0))
    throw new WorkloadError(
      'bad-format',
      `trace ${path}: no requests (the file is empty${format === 'burstgpt' || format === 'azure' ? ' below its header' : ''})`,
    );
  if (rows.length === 0)
    throw new WorkloadError('bad-format', `trace ${path}: no requests${window ? ` in the window ${window.startS}..${window.endS} s` : ' that did not fail'}`);
  const warnings: string[] = [];
  if (firstBackwards !== null) warnings.push(`the trace's timestamps go backwards (first at line ${firstBackwards}); its requests were sorted by time`);
  rows.sort((a, b) => a.tMs - b.tMs);
  const w0 = rows[0]?.tMs ?? 0;
  return {
    path,
    format,
    sha256,
    window,
    labels,
    warnings,
    skipped: { failed, outsideWindow },
    requests: rows.map((r) => ({
      atMs: Math.round((r.tMs - w0) * 1e6) / 1e6,
      promptTokens: r.promptTokens,
      outputTokens: r.outputTokens,
      line: r.line,
      ...(r.hashIds ? { hashIds: r.hashIds } : {}),
      ...(r.prompt !== undefined ? { prompt: r.prompt } : {}),
    })),
  };
}

/** Parses `--window START..END` (seconds from the trace's first request). */
export function parseWindow(text: string): { startS: number; endS: number } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\.\.\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  const startS = Number(m?.[1]);
  const endS = Number(m?.[2]);
  if (!m || !(endS > startS)) throw new WorkloadError('bad-format', `--window: '${text}' is not START..END in seconds with END after START (e.g. 0..600)`);
  return { startS, endS };
}
