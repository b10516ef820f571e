/**
 * `goodput trace analyse` and `goodput trace anonymise` as a user runs them:
 * an anonymised Mooncake trace replays against the simulator on the original's
 * schedule with the original's prefix hits, request for request (requests far
 * enough apart that every earlier one has ended, so the hits are the perfect
 * cache's, which the analysis predicts); analyse reads an Azure trace, a
 * ShareGPT file's sessions, and refuses a bad line as replay does.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { writeAzureTrace, writeShareGpt } from '../test-support/dataset-fixtures.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-trace-tools-'));

beforeAll(async () => {
  sim = await spawnSimProcess(['--prefill-base-ms', '1', '--prefill-ms-per-token', '0', '--decode-step-ms', '1', '--decode-ms-per-extra-seq', '0']);
});
afterAll(async () => {
  await sim?.stop();
});

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord)
    .sort((a, b) => a.targetSendNs - b.targetSendNs);

describe('goodput trace', () => {
  it(
    'anonymise: the copy replays on the same schedule with the same prefix hits, and analyse predicts them',
    async () => {
      const trace = join(dir, 'private.jsonl');
      // 40 requests 120 ms apart; each starts with one of four shared prefixes of 1-2 blocks, then a block of its own.
      const rows = Array.from({ length: 40 }, (_, i) => {
        const shared = [[7], [7, 8], [9], [10, 11]][i % 4] as number[];
        return {
          timestamp: 5_000_000 + i * 120 + (i % 3),
          input_length: shared.length * 512 + 40 + i,
          output_length: 4 + (i % 5),
          hash_ids: [...shared, 900 + i],
        };
      });
      writeFileSync(trace, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
      const copy = join(dir, 'shared.jsonl');
      const a = await runGoodput(['trace', 'anonymise', trace, '--out', copy, '--seed', '7']);
      expect(a.code).toBe(0);
      expect(a.stderr).toContain(`wrote ${copy}: 40 requests`);
      const replay = async (file: string) => {
        const raw = `${file}.raw`;
        const r = await runGoodput(['replay', file, '--url', sim.url, '--raw', raw, '--no-save'], {}, 120_000);
        expect(r.code).toBe(0);
        return records(raw);
      };
      const [mine, theirs] = [await replay(trace), await replay(copy)];
      const offsets = (recs: RequestRecord[]) => recs.map((x) => Math.round((x.targetSendNs - (recs[0] as RequestRecord).targetSendNs) / 1e3) / 1e3);
      expect(offsets(theirs)).toEqual(offsets(mine));
      expect(offsets(mine)).toEqual(rows.map((r) => r.timestamp - 5_000_000));
      expect(theirs.map((x) => [x.promptTokens, x.outputTokens, x.cachedPromptTokens])).toEqual(
        mine.map((x) => [x.promptTokens, x.outputTokens, x.cachedPromptTokens]),
      );
      const an = await runGoodput(['trace', 'analyse', copy, '--json']);
      const analysis = JSON.parse(an.stdout) as { prefix: { hitBlocks: number } };
      expect(mine.reduce((s, x) => s + (x.cachedPromptTokens ?? 0), 0)).toBe(analysis.prefix.hitBlocks * 512);
      expect(analysis.prefix.hitBlocks).toBeGreaterThan(40);
    },
    patient(180_000),
  );

  it(
    "analyse: an Azure trace's rate, gaps and lengths; a ShareGPT file's sessions; a bad line refused as replay refuses it",
    async () => {
      const azure = join(dir, 'azure.csv');
      const rows = writeAzureTrace(azure, 500, 100);
      const a = await runGoodput(['trace', 'analyse', azure, '--json', '--bucket-s', '10']);
      expect(a.code).toBe(0);
      const j = JSON.parse(a.stdout) as { format: string; requests: number; rate: { requests: number[] }; promptTokens: { max: number }; prefix: null };
      expect(j).toMatchObject({ format: 'azure', requests: 500, prefix: null, promptTokens: { max: Math.max(...rows.map((r) => r.context)) } });
      expect(j.rate.requests.reduce((x, y) => x + y, 0)).toBe(500);
      const text = await runGoodput(['trace', 'analyse', azure]);
      expect(text.stdout).toMatch(/^.*azure\.csv \(azure\): 500 requests over [\d.]+ s, [\d.]+ req\/s on average\n/);
      expect(text.stdout).toMatch(/burstiness {7}CV of gaps [\d.]+ {2}gamma shape [\d.]+/);

      const share = join(dir, 'sharegpt.json');
      writeShareGpt(share, 10);
      const s = await runGoodput(['trace', 'analyse', share, '--json']);
      expect(JSON.parse(s.stdout)).toMatchObject({ format: 'sharegpt', sessions: 10, turnsPerSession: { min: 2, max: 2 } });

      const bad = join(dir, 'bad.csv');
      writeFileSync(bad, 'TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,374,-1\n');
      const r = await runGoodput(['trace', 'analyse', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`trace ${bad}: line 2: GeneratedTokens "-1" is not a whole number of at least 1`);
      const out = join(dir, 'never.jsonl');
      const w = await runGoodput(['trace', 'anonymise', bad, '--out', out]);
      expect(w.code).toBe(2);
      expect(existsSync(out)).toBe(false);
    },
    patient(120_000),
  );
});
