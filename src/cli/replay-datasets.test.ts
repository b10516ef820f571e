/**
 * Production data as a user brings it, against the simulator in its own
 * process: an Azure LLM inference trace CSV replayed request for request on its
 * schedule (the schedule's logic: each request's target send offset is its
 * traced offset; how late it actually leaves is replay-datasets.timing.test.ts),
 * a ShareGPT file's first turns and a Parquet dataset with a column mapping as a
 * sweep's prompts and output lengths (the records show them), and a malformed
 * row refused naming the file and line before anything is sent or stored.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { writeAzureTrace, writeParquet, writeShareGpt } from '../test-support/dataset-fixtures.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-datasets-'));

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    '1',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '1',
    '--decode-ms-per-extra-seq',
    '0',
    '--max-batch',
    '256',
  ]);
});
afterAll(async () => {
  await sim?.stop();
});

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord)
    .sort((a, b) => a.targetSendNs - b.targetSendNs || a.seq - b.seq);
const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('production data', () => {
  it(
    'replays an Azure trace CSV on its schedule with its own lengths',
    async () => {
      const trace = join(dir, 'AzureLLMInferenceTrace_conv.csv');
      const rows = writeAzureTrace(trace, 80, 40);
      const raw = join(dir, 'azure-raw.jsonl');
      const json = join(dir, 'azure.json');
      const r = await runGoodput(['replay', trace, '--url', sim.url, '--raw', raw, '--json', json, '--no-save'], {}, 120_000);
      expect(r.stderr).toMatch(/trace azure: 80 requests over [\d.]+ s; sha256 [0-9a-f]{12}…/);
      expect(r.code).toBe(0);
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(result.run.arrival).toMatchObject({ kind: 'trace', source: { file: 'AzureLLMInferenceTrace_conv.csv', format: 'azure' } });
      const recs = records(raw);
      expect(recs.map((x) => [x.promptTokens, x.outputTokens])).toEqual(rows.map((x) => [x.context, x.generated]));
      const t0 = (recs[0] as RequestRecord).targetSendNs;
      for (const [i, x] of recs.entries()) expect(Math.abs((x.targetSendNs - t0) / 1e6 - (rows[i]?.atMs ?? NaN))).toBeLessThan(0.01);
    },
    patient(180_000),
  );

  it(
    "sweeps a ShareGPT file's first turns at a constant rate: each prompt as written, each answer's length as its cap, sent 50 ms apart",
    async () => {
      const file = join(dir, 'sharegpt.json');
      const convs = writeShareGpt(file, 12);
      const raw = join(dir, 'sharegpt-raw.jsonl');
      const r = await runGoodput(
        [
          'sweep',
          '--url',
          sim.url,
          '--dataset',
          file,
          '--arrival',
          'rate',
          '--burstiness',
          'inf',
          '--levels',
          '20',
          '--requests-per-level',
          '12',
          '--warmup',
          '0',
          '--raw',
          raw,
          '--no-save',
        ],
        {},
        120_000,
      );
      expect(r.stderr).toMatch(/dataset sharegpt: 12 prompts; sha256 [0-9a-f]{12}…/);
      expect(r.code).toBe(0);
      const recs = records(raw);
      expect(recs.map((x) => [x.promptTokens, x.outputTokens])).toEqual(convs.map((c) => [wordsOf(c.prompt), c.answerWords]));
      const t0 = (recs[0] as RequestRecord).targetSendNs;
      for (const [i, x] of recs.entries()) expect(Math.abs((x.targetSendNs - t0) / 1e6 - i * 50)).toBeLessThan(0.01);
    },
    patient(180_000),
  );

  it(
    'sweeps a Parquet dataset through its column mapping: every level sends its prompts and output lengths, in order',
    async () => {
      const file = join(dir, 'dataset.parquet');
      const prompts = Array.from({ length: 6 }, (_, i) => Array.from({ length: 5 + i * 3 }, (_, k) => `w${i}_${k}`).join(' '));
      const lens = [3, 9, 5, 12, 7, 4];
      writeParquet(file, [
        { name: 'id', data: prompts.map((_, i) => i), type: 'INT32' },
        { name: 'question', data: prompts, type: 'STRING' },
        { name: 'max_new', data: lens.map(BigInt), type: 'INT64' },
      ]);
      const raw = join(dir, 'parquet-raw.jsonl');
      const r = await runGoodput(
        [
          'sweep',
          '--url',
          sim.url,
          '--dataset',
          file,
          '--column',
          'prompt=question,output_len=max_new',
          '--levels',
          '1,2',
          '--requests-per-level',
          '6',
          '--warmup',
          '0',
          '--raw',
          raw,
          '--no-save',
        ],
        {},
        120_000,
      );
      expect(r.stderr).toMatch(/dataset parquet: 6 prompts; sha256/);
      expect(r.code).toBe(0);
      const recs = readFileSync(raw, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as RequestRecord);
      for (const level of [1, 2]) {
        const mine = recs.filter((x) => x.concurrency === level);
        expect(mine.map((x) => [x.promptTokens, x.outputTokens]).sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(
          prompts.map((p, i) => [wordsOf(p), lens[i]]),
        );
      }
    },
    patient(180_000),
  );

  const bad: Array<[string, (d: string) => string, string[], (f: string) => string]> = [
    [
      'a malformed JSONL row, naming the file and line',
      (d) => {
        const f = join(d, 'rows.jsonl');
        writeFileSync(f, '{"q":"a b","n":3}\n{"q":"c d","n":"three"}\n');
        return f;
      },
      ['--column', 'prompt=q,output_len=n'],
      (f) => `goodput: dataset ${f}: line 2: output_len (column "n") "three" is not a whole number of at least 1`,
    ],
    [
      'a malformed Azure row, naming the file and line',
      (d) => {
        const f = join(d, 'azure.csv');
        writeFileSync(f, 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,44\n2023-11-16 18:15:47.0000000,374\n');
        return f;
      },
      [],
      (f) => `trace ${f}: line 3: 2 fields where the header has 3`,
    ],
    ['--column without --dataset', () => '', ['--column', 'prompt=q'], () => 'goodput: --column: needs --dataset'],
  ];
  for (const [what, make, flags, message] of bad) {
    it(
      `refuses ${what} (exit 2, nothing stored)`,
      async () => {
        const home = mkdtempSync(join(dir, 'home-'));
        const f = make(home);
        const args = f.endsWith('.csv') ? ['replay', f, ...flags] : ['sweep', ...(f ? ['--dataset', f] : []), ...flags];
        const r = await runGoodput([...args, '--url', sim.url], { GOODPUT_HOME: home });
        expect(r.stderr).toContain(message(f));
        expect(r.code).toBe(2);
        expect(existsSync(join(home, 'db'))).toBe(false);
      },
      patient(60_000),
    );
  }
});
