/**
 * A dataset on its own send times: seconds, milliseconds, dates and Parquet
 * timestamps become a trace's offsets from the first row, each row with its own
 * prompt and output length; and every time a trace would refuse is refused
 * naming the file and the row's line (row index for Parquet).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { type ColumnMap, parseColumnMap, readDataset } from './dataset-read.js';
import { datasetTrace } from './dataset-trace.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-dataset-trace-'));
let n = 0;
const file = (data: string | ArrayBuffer, ext: string) => {
  const p = join(dir, `t${n++}.${ext}`);
  writeFileSync(p, typeof data === 'string' ? data : Buffer.from(data));
  return p;
};
const csv = (...lines: string[]) => file(lines.join('\n') + '\n', 'csv');
const timed: ColumnMap = { prompt: 'q', output_len: 'n', timestamp: 't' };
const traceOf = async (path: string, columns: ColumnMap = timed, o = {}) => datasetTrace(await readDataset(path, columns), o);

describe('column mappings with a send time', () => {
  it('takes timestamp= or timestamp_ms=, never both', () => {
    expect(parseColumnMap('prompt=q,output_len=n,timestamp=t')).toEqual(timed);
    expect(parseColumnMap('input_len=p,output_len=n,timestamp_ms=t')).toEqual({ input_len: 'p', output_len: 'n', timestamp_ms: 't' });
    expect(() => parseColumnMap('prompt=q,timestamp=a,timestamp_ms=b')).toThrow(
      '--column: map at most one of timestamp (seconds, or a date and time) and timestamp_ms (milliseconds)',
    );
  });
});

describe('datasetTrace', () => {
  it('sends each row at its offset from the first, with its own prompt and output length', async () => {
    const t = await traceOf(csv('t,q,n', '100.5,alpha beta,4', '100.75,"gamma, delta epsilon",7', '101.5,zeta,2'));
    expect(t.format).toBe('dataset');
    expect(t.requests).toEqual([
      { atMs: 0, promptTokens: 2, outputTokens: 4, line: 2, prompt: 'alpha beta' },
      { atMs: 250, promptTokens: 3, outputTokens: 7, line: 3, prompt: 'gamma, delta epsilon' },
      { atMs: 1000, promptTokens: 1, outputTokens: 2, line: 4, prompt: 'zeta' },
    ]);
    expect(t.warnings).toEqual([]);
  });

  it('reads milliseconds, dates with or without a zone, and a Parquet timestamp', async () => {
    const ms = await traceOf(file('{"t": 5000, "p": 10, "n": 3}\n{"t": 5012.5, "p": 20, "n": 4}\n', 'jsonl'), {
      input_len: 'p',
      output_len: 'n',
      timestamp_ms: 't',
    });
    expect(ms.requests.map((r) => [r.atMs, r.promptTokens, r.prompt])).toEqual([
      [0, 10, undefined],
      [12.5, 20, undefined],
    ]);
    const dates = await traceOf(csv('t,q,n', '2024-05-10 00:00:00.009930+00:00,a,1', '2024-05-10T01:00:00.5+01:00,b,1', '2024-05-10 00:00:02,c,1'));
    expect(dates.requests.map((r) => r.atMs)).toEqual([0, 490.07, 1990.07]);
    const p = file(
      parquetWriteBuffer({
        columnData: [
          { name: 'q', data: ['a', 'b'], type: 'STRING' },
          { name: 'n', data: [2, 3], type: 'INT32' },
          { name: 't', data: [new Date(Date.UTC(2025, 0, 1, 0, 0, 1)), new Date(Date.UTC(2025, 0, 1, 0, 0, 3, 250))], type: 'TIMESTAMP' },
        ],
      } as Parameters<typeof parquetWriteBuffer>[0]),
      'parquet',
    );
    expect((await traceOf(p)).requests.map((r) => [r.atMs, r.line])).toEqual([
      [0, 0],
      [2250, 1],
    ]);
  });

  it('sorts times that go backwards and says where, refuses them with --strict, and takes a window', async () => {
    const path = csv('t,q,n', '0,a,1', '2,b,1', '1,c,1', '3,d,1');
    const sorted = await traceOf(path);
    expect(sorted.requests.map((r) => r.prompt)).toEqual(['a', 'c', 'b', 'd']);
    expect(sorted.warnings).toEqual(["the dataset's timestamps go backwards (first at line 4); its rows were sorted by time"]);
    await expect(traceOf(path, timed, { strict: true })).rejects.toThrow(
      `dataset ${path}: line 4: the timestamp goes backwards (1 s after 2 s); without --strict the rows are sorted`,
    );
    const w = await traceOf(path, timed, { window: { startS: 1, endS: 3 } });
    expect(w.requests.map((r) => [r.prompt, r.atMs])).toEqual([
      ['c', 0],
      ['b', 1000],
    ]);
    expect(w.skipped).toEqual({ failed: 0, outsideWindow: 2 });
  });

  it('refuses a bad time naming the file, the line, the field and its column', async () => {
    const notTime = csv('t,q,n', '0,a,1', 'soon,b,1');
    await expect(traceOf(notTime)).rejects.toThrow(
      `dataset ${notTime}: line 3: timestamp (column "t") "soon" is not a date and time like 2023-11-16 18:15:46.6805900`,
    );
    const notMs = file('{"t": 1, "q": "a", "n": 1}\n{"t": "2024-05-10 00:00:00", "q": "b", "n": 1}\n', 'jsonl');
    await expect(traceOf(notMs, { prompt: 'q', output_len: 'n', timestamp_ms: 't' })).rejects.toThrow(
      `dataset ${notMs}: line 2: timestamp_ms (column "t") "2024-05-10 00:00:00" is not a number of milliseconds`,
    );
    const empty = csv('t,q,n', ',a,1');
    await expect(traceOf(empty)).rejects.toThrow(`dataset ${empty}: line 2: timestamp (column "t") "" is not a number of seconds or a date and time`);
    const far = csv('t,q,n', '0,a,1', '1e300,b,1');
    await expect(traceOf(far)).rejects.toThrow(`dataset ${far}: line 3: timestamp (column "t") is past the horizon of 10000000000 s a trace's times may reach`);
    const long = csv('t,q,n', '0,a,1', `${367 * 86_400},b,1`);
    await expect(traceOf(long)).rejects.toThrow(`dataset ${long}: line 3: the timestamp is 367 days after the first row's, past the 366 days a trace may span`);
  });

  it('refuses a row that stretches the span backwards: sorted to the front, it would push every other row years later', async () => {
    const day = 86_400;
    const before = csv('t,q,n', `${400 * day},a,1`, '0,b,1');
    await expect(traceOf(before)).rejects.toThrow(
      `dataset ${before}: line 3: the timestamp is 400 days before the first row's, past the 366 days a trace may span; take a --window`,
    );
    const latest = csv('t,q,n', `${400 * day},a,1`, `${401 * day},b,1`, '0,c,1');
    await expect(traceOf(latest)).rejects.toThrow(
      `dataset ${latest}: line 4: the timestamp is 401 days before the latest row, past the 366 days a trace may span; take a --window`,
    );
    const earliest = csv('t,q,n', `${100 * day},a,1`, '0,b,1', `${400 * day},c,1`);
    await expect(traceOf(earliest)).rejects.toThrow(
      `dataset ${earliest}: line 4: the timestamp is 400 days after the earliest row, past the 366 days a trace may span; take a --window`,
    );
    // Within the span, rows before the first are sorted to the front as before.
    const within = await traceOf(csv('t,q,n', `${300 * day},a,1`, '0,b,1'));
    expect(within.requests.map((r) => [r.prompt, r.atMs])).toEqual([
      ['b', 0],
      ['a', 300 * day * 1000],
    ]);
  });

  it('needs every row: a dataset past the rows one level sends is refused, not cut', async () => {
    const rows = Array.from({ length: 20_001 }, (_, i) => `${i},q${i},1`);
    const big = csv('t,q,n', ...rows);
    await expect(traceOf(big)).rejects.toThrow(
      `dataset ${big}: rows 20001 is above the limit of 20000 measured requests per level: a replay sends every row; keep a slice of the file`,
    );
  });

  it('refuses a mapping without a time or an output length', async () => {
    const path = csv('t,q,n', '0,a,1');
    await expect(traceOf(path, { prompt: 'q', output_len: 'n' })).rejects.toThrow(
      `dataset ${path}: replayed on its own times, it needs --column timestamp=COLUMN (or timestamp_ms=)`,
    );
    await expect(traceOf(path, { prompt: 'q', timestamp: 't' })).rejects.toThrow(
      `dataset ${path}: a replay takes each request's output length from its row: map output_len=COLUMN`,
    );
  });
});
