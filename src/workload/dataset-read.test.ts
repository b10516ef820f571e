/**
 * Local datasets as they come: Parquet written here with hyparquet-writer,
 * JSONL, CSV with quoted newlines, and ShareGPT JSON, each read through its
 * column mapping; and every bad row refused naming the file and its line (the
 * row index for Parquet), a bad mapping refused naming the flag.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './content-hash.js';
import { datasetPrompts, parseColumnMap, readDataset } from './dataset-read.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-dataset-'));
let n = 0;
const file = (data: string | ArrayBuffer, ext: string) => {
  const p = join(dir, `d${n++}.${ext}`);
  writeFileSync(p, typeof data === 'string' ? data : Buffer.from(data));
  return p;
};
const parquet = (columns: Array<{ name: string; data: unknown[]; type: string }>) =>
  file(parquetWriteBuffer({ columnData: columns } as Parameters<typeof parquetWriteBuffer>[0]), 'parquet');

describe('column mappings', () => {
  it('reads prompt=…,output_len=… and refuses a mapping that names no prompt, a field twice or an unknown field', () => {
    expect(parseColumnMap('prompt=question, output_len=n')).toEqual({ prompt: 'question', output_len: 'n' });
    expect(parseColumnMap('input_len=ctx,output_len=gen')).toEqual({ input_len: 'ctx', output_len: 'gen' });
    expect(() => parseColumnMap('output_len=n')).toThrow('--column: map exactly one of prompt (the text) and input_len (a length to build)');
    expect(() => parseColumnMap('prompt=a,prompt=b')).toThrow('--column: prompt is mapped twice');
    expect(() => parseColumnMap('prompt=a,answer=b')).toThrow(
      "--column: 'answer=b' is not FIELD=COLUMN with FIELD one of prompt, input_len, output_len, timestamp, timestamp_ms",
    );
  });
});

describe('reading datasets', () => {
  it('reads Parquet by its column mapping, lengths from any integer type', async () => {
    const p = parquet([
      { name: 'question', data: ['what is a llama', 'why is the sky blue'], type: 'STRING' },
      { name: 'n', data: [7, 19], type: 'INT32' },
      { name: 'big', data: [3n, 4n], type: 'INT64' },
    ]);
    const ds = await readDataset(p, { prompt: 'question', output_len: 'n' });
    expect(ds.format).toBe('parquet');
    expect(ds.rows).toEqual([
      { prompt: 'what is a llama', outputLen: 7 },
      { prompt: 'why is the sky blue', outputLen: 19 },
    ]);
    expect((await readDataset(p, { prompt: 'question', output_len: 'big' })).rows.map((r) => r.outputLen)).toEqual([3, 4]);
    await expect(readDataset(p, { prompt: 'q', output_len: 'n' })).rejects.toThrow(`dataset ${p}: no column "q" (its columns: question, n, big)`);
  });

  it('refuses a bad Parquet row naming its row index', async () => {
    const p = parquet([
      { name: 'question', data: ['a', 'b', 'c'], type: 'STRING' },
      { name: 'n', data: [7, 0, 3], type: 'INT32' },
    ]);
    await expect(readDataset(p, { prompt: 'question', output_len: 'n' })).rejects.toThrow(
      `dataset ${p}: row index 1: output_len (column "n") 0 is not a whole number of at least 1`,
    );
  });

  it('reads JSONL and refuses a malformed line naming the file and line', async () => {
    const good = file('{"text":"hello there","len":5}\n\n{"text":"again","len":"6"}\n', 'jsonl');
    const ds = await readDataset(good, { prompt: 'text', output_len: 'len' });
    expect(ds.format).toBe('jsonl');
    expect(ds.sha256).toBe(sha256Hex('{"text":"hello there","len":5}\n\n{"text":"again","len":"6"}\n'));
    expect(ds.rows).toEqual([
      { prompt: 'hello there', outputLen: 5 },
      { prompt: 'again', outputLen: 6 },
    ]);
    const broken = file('{"text":"hello","len":5}\n{"text":"cut off\n', 'jsonl');
    await expect(readDataset(broken, { prompt: 'text', output_len: 'len' })).rejects.toThrow(`dataset ${broken}: line 2: not a JSON object`);
    const noText = file('{"text":"hello","len":5}\n{"len":5}\n', 'jsonl');
    await expect(readDataset(noText, { prompt: 'text' })).rejects.toThrow(`dataset ${noText}: line 2: prompt (column "text") missing is not text`);
    const past = file(`{"len":5,"text":"${'x'.repeat(40)}"}\n{"len":50000,"text":"a"}\n`, 'jsonl');
    await expect(readDataset(past, { prompt: 'text', output_len: 'len' })).rejects.toThrow(
      `dataset ${past}: line 2: output_len (column "len") 50000 is above the limit of 32768 output tokens per request`,
    );
  });

  it('reads CSV whose quoted prompts hold commas and newlines, and names the line a bad record starts on', async () => {
    const csv = 'id,prompt,out\r\n1,"first, with a comma",4\r\n2,"second\nspans two lines",5\r\n3,third,x\r\n';
    const p = file(csv, 'csv');
    await expect(readDataset(p, { prompt: 'prompt', output_len: 'out' })).rejects.toThrow(
      `dataset ${p}: line 5: output_len (column "out") "x" is not a whole number of at least 1`,
    );
    const ok = file(csv.replace(',x', ',6'), 'csv');
    const ds = await readDataset(ok, { prompt: 'prompt', output_len: 'out' });
    expect(ds.format).toBe('csv');
    expect(ds.rows.map((r) => [r.prompt, r.outputLen])).toEqual([
      ['first, with a comma', 4],
      ['second\nspans two lines', 5],
      ['third', 6],
    ]);
    await expect(readDataset(ok, { prompt: 'text' })).rejects.toThrow(`dataset ${ok}: line 1: the CSV header has no column "text"`);
    const open = file('prompt\n"never closed\n', 'csv');
    await expect(readDataset(open, { prompt: 'prompt' })).rejects.toThrow(`dataset ${open}: line 2: a quoted field is never closed`);
    await expect(readDataset(ok, null)).rejects.toThrow(
      `dataset ${ok}: a CSV dataset needs --column prompt=COLUMN (or input_len=COLUMN), and output_len=COLUMN`,
    );
  });

  it('reads ShareGPT first turns as prompts, the answer in words as the output length; no mapping taken', async () => {
    const text = JSON.stringify([
      {
        id: 'a',
        conversations: [
          { from: 'human', value: 'tell me a story' },
          { from: 'gpt', value: 'once upon a time' },
        ],
      },
      { id: 'b', conversations: [{ from: 'gpt', value: 'hello' }] },
      {
        id: 'c',
        conversations: [
          { from: 'system', value: 'be brief' },
          { from: 'human', value: 'hi' },
          { from: 'gpt', value: 'hello there' },
          { from: 'human', value: 'more' },
        ],
      },
    ]);
    const p = file(text, 'json');
    const ds = await readDataset(p, null);
    expect(ds.format).toBe('sharegpt');
    expect(ds.rows).toEqual([
      { prompt: 'tell me a story', outputLen: 4 },
      { prompt: 'hi', outputLen: 2 },
    ]);
    expect(ds.skipped).toEqual({ pastLimit: 0, unanswered: 1 });
    await expect(readDataset(p, { prompt: 'x' })).rejects.toThrow(`dataset ${p}: a ShareGPT JSON list takes no --column`);
    const bad = file(JSON.stringify([{ id: 'a', conversations: [] }, { id: 'b' }]), 'json');
    await expect(readDataset(bad, null)).rejects.toThrow(`dataset ${bad}: conversation 2: no "conversations" list`);
  });

  it('builds input_len prompts of that many words, each row its own, and keeps the output lengths', async () => {
    const p = file('ctx,gen\n5,2\n3,1\n', 'csv');
    const items = datasetPrompts(await readDataset(p, { input_len: 'ctx', output_len: 'gen' }), 1);
    expect(items.map((i) => [i.text.split(' ').length, i.outputTokens])).toEqual([
      [5, 2],
      [3, 1],
    ]);
  });

  it('bounds a text field by datasetFieldBytes and reads only the first requestsPerLevel rows', async () => {
    const long = file(`{"t":"${'a'.repeat(1024 * 1024 + 1)}"}\n`, 'jsonl');
    await expect(readDataset(long, { prompt: 't' })).rejects.toThrow(
      `dataset ${long}: line 1: prompt (column "t") 1048577 is above the limit of 1048576 bytes in one text field of a dataset row`,
    );
    const many = file(Array.from({ length: 20_003 }, (_, i) => `{"t":"p${i}"}`).join('\n'), 'jsonl');
    const ds = await readDataset(many, { prompt: 't' });
    expect([ds.rows.length, ds.skipped.pastLimit, ds.rows.at(-1)?.prompt]).toEqual([20_000, 3, 'p19999']);
  });

  it('refuses a file that is not there, naming it', async () => {
    await expect(readDataset(join(dir, 'none.parquet'), { prompt: 'p' })).rejects.toThrow(`dataset ${join(dir, 'none.parquet')}: cannot read (ENOENT)`);
  });
});
