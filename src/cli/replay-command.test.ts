/**
 * goodput replay as a user runs it, against the simulator in its own process:
 * a 2,000-request Mooncake-style trace with bursts and shared prefixes is sent
 * request for request (count, prompt and output lengths as traced), on its
 * schedule (how late it leaves is the bench's question: replay-lateness.ts),
 * with the shared blocks found in the simulator's prefix cache; a BurstGPT CSV
 * with failures in its log; and bad input refused before anything is sent or stored.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RequestRecord, sweepResultSchema } from '../core/index.js';
import { type SimProcess, spawnSimProcess } from '../sim/index.js';
import { runGoodput } from '../test-support/goodput-process.js';
import { type MooncakeRow, writeBurstGptTrace, writeMooncakeTrace } from '../test-support/trace-fixtures.js';
import { sha256Hex } from '../workload/index.js';
import { patient } from '../test-support/patience.js';

let sim: SimProcess;
const dir = mkdtempSync(join(tmpdir(), 'goodput-replay-'));
const BLOCK = 512;

beforeAll(async () => {
  sim = await spawnSimProcess([
    '--prefill-base-ms',
    '2',
    '--prefill-ms-per-token',
    '0',
    '--decode-step-ms',
    '2',
    '--decode-ms-per-extra-seq',
    '0',
    '--max-batch',
    '1024',
  ]);
});
afterAll(async () => {
  await sim?.stop();
});

const records = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RequestRecord);

/** Leading hash ids `a` shares with `b`. */
const sharedLead = (a: readonly number[], b: readonly number[]) => {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
};

describe('goodput replay', () => {
  it(
    'sends a 2,000-request Mooncake trace as traced, on its schedule, with shared prefixes cached by the server',
    async () => {
      const trace = join(dir, 'mooncake.jsonl');
      const rows = writeMooncakeTrace(trace, 2000, 8000);
      const raw = join(dir, 'mooncake-raw.jsonl');
      const json = join(dir, 'mooncake.json');
      const r = await runGoodput(['replay', trace, '--url', sim.url, '--raw', raw, '--json', json, '--no-save'], {}, 240_000);
      expect(r.stderr).toMatch(/trace mooncake: 2000 requests over [\d.]+ s; sha256 [0-9a-f]{12}…/);
      expect(r.code).toBe(0);
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(result.run.arrival).toMatchObject({
        kind: 'trace',
        source: { file: 'mooncake.jsonl', format: 'mooncake', sha256: sha256Hex(readFileSync(trace)), window: null },
      });
      const [level] = result.levels;
      expect(level?.load?.label).toBe('trace mooncake.jsonl at 1×');
      expect(level?.load?.scheduleLagMs?.p99).toBeGreaterThanOrEqual(0);
      expect(r.stdout).toMatch(
        /trace mooncake\.jsonl at 1×: offered [\d.]+ req\/s, sent [\d.]+ req\/s, peak \d+ in flight · send lateness p50 [\d.]+ ms, p99 [\d.]+ ms/,
      );

      const recs = records(raw).sort((a, b) => a.seq - b.seq);
      expect(recs.map((x) => x.seq)).toEqual(rows.map((_, i) => i));
      expect(recs.every((x) => x.outcome.kind === 'ok')).toBe(true);
      expect(recs.map((x) => x.promptTokens)).toEqual(rows.map((x) => x.input_length));
      expect(recs.map((x) => x.outputTokens)).toEqual(rows.map((x) => x.output_length));
      // Offsets as traced: request i left its scheduled offset from request 0's.
      const t0 = (recs[0] as RequestRecord).targetSendNs;
      for (const [i, x] of recs.entries())
        expect(Math.abs((x.targetSendNs - t0) / 1e6 - ((rows[i] as MooncakeRow).timestamp - (rows[0] as MooncakeRow).timestamp))).toBeLessThan(0.01);

      // Cached prompt tokens: at least the blocks shared with a request whose first token had reached us before this one left,
      // at most those shared with any request sent before this one ended.
      let exact = 0;
      let hits = 0;
      for (const [i, x] of recs.entries()) {
        const ids = (rows[i] as MooncakeRow).hash_ids;
        let lo = 0;
        let hi = 0;
        for (const [j, y] of recs.entries()) {
          if (j === i) continue;
          const k = sharedLead(ids, (rows[j] as MooncakeRow).hash_ids);
          if (y.firstTokenNs !== null && y.firstTokenNs < x.sendNs) lo = Math.max(lo, k);
          if (y.sendNs < (x.endNs ?? Number.POSITIVE_INFINITY)) hi = Math.max(hi, k);
        }
        const cached = x.cachedPromptTokens ?? -1;
        expect(cached, `request ${i}`).toBeGreaterThanOrEqual(lo * BLOCK);
        expect(cached, `request ${i}`).toBeLessThanOrEqual(hi * BLOCK);
        expect(cached % BLOCK, `request ${i}`).toBe(0);
        if (lo === hi) exact++;
        if (cached > 0) hits++;
      }
      expect(exact).toBeGreaterThan(1500);
      expect(hits).toBeGreaterThan(1000);
    },
    patient(300_000),
  );

  it(
    'replays a BurstGPT CSV at twice its speed: failures in its log left out and counted, the window taken',
    async () => {
      const trace = join(dir, 'burst.csv');
      const rows = writeBurstGptTrace(trace, 60, 0.1);
      const raw = join(dir, 'burst-raw.jsonl');
      const json = join(dir, 'burst.json');
      const r = await runGoodput(
        ['replay', trace, '--url', sim.url, '--speed', '2', '--window', '1..5', '--max-concurrency', '8', '--raw', raw, '--json', json, '--no-save'],
        {},
        120_000,
      );
      expect(r.code).toBe(0);
      const kept = rows.filter((x, i) => x.response > 0 && i * 0.1 >= 1 - 1e-9 && i * 0.1 < 5 - 1e-9);
      expect(r.stderr).toMatch(new RegExp(`trace burstgpt: ${kept.length} requests over [\\d.]+ s \\(left out: 4 failed in the log, 20 outside the window\\)`));
      const recs = records(raw).sort((a, b) => a.seq - b.seq);
      expect(recs.map((x) => [x.promptTokens, x.outputTokens])).toEqual(kept.map((x) => [x.request, x.response]));
      const result = sweepResultSchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      expect(result.levels[0]?.load).toMatchObject({ kind: 'trace', level: 2, label: 'trace burst.csv at 2×, cap 8' });
      // At twice the speed the trace's span is halved.
      const spanS = ((kept.at(-1)?.t ?? 0) - (kept[0]?.t ?? 0)) / 2;
      expect(result.levels[0]?.load?.offeredRps).toBeCloseTo((kept.length - 1) / spanS, 6);
      expect(result.run.arrival).toMatchObject({
        source: {
          skippedFailed: 4,
          skippedOutsideWindow: 20,
          window: { startS: 1, endS: 5 },
          labels: { Model: { 'GPT-4': expect.any(Number), ChatGPT: expect.any(Number) } },
        },
      });
    },
    patient(180_000),
  );

  const bad: Array<[string, string[], RegExp]> = [
    ['--levels, which a replay takes as speeds', ['--levels', '1,2'], /--levels: a replay's levels are speeds: give --speed 1,2,4/],
    ['--output-tokens, which comes from the trace', ['--output-tokens', '64'], /--output-tokens: each request's output length comes from the trace/],
    ['a bad speed, every bad value named', ['--speed', '0,abc,2000'], /--speed: '0', 'abc', '2000' are not speeds above 0 and at most 1000/],
    ['a bad window', ['--window', '10..5'], /--window: '10\.\.5' is not START\.\.END/],
    ['a window with nothing in it', ['--window', '500..600'], /: no requests in the window 500\.\.600 s$/m],
    ['a strict trace going backwards', ['--strict'], /: line 3: the timestamp goes backwards/],
  ];
  for (const [what, flags, message] of bad) {
    it(
      `refuses ${what} (exit 2, nothing stored)`,
      async () => {
        const trace = join(dir, 'small.jsonl');
        writeFileSync(
          trace,
          [
            { timestamp: 0, input_length: 8, output_length: 4 },
            { timestamp: 100, input_length: 8, output_length: 4 },
            { timestamp: 50, input_length: 8, output_length: 4 },
          ]
            .map((x) => JSON.stringify(x))
            .join('\n'),
        );
        const home = mkdtempSync(join(dir, 'home-'));
        const r = await runGoodput(['replay', trace, '--url', sim.url, ...flags], { GOODPUT_HOME: home });
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(existsSync(join(home, 'db'))).toBe(false);
      },
      patient(60_000),
    );
  }
});
