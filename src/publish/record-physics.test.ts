// Records that cannot have been measured, forged with goodput's own code (levels,
// cards, recordsSha256 and contractHash recomputed so every hash and summary
// agrees): each is refused naming the record, the level and the rule.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StoredRecord } from '../contract/index.js';
import type { SweepResult } from '../core/index.js';
import { evidencePair } from '../test-support/evidence-fixture.js';
import { type Forgery, forge } from '../test-support/forger.js';
import { measuredQualityFixture } from '../test-support/quality-fixture.js';
import { packReceipt } from '../test-support/receipt-dir.js';
import { recomputeReceipt } from './receipt-file.js';
import type { Rule } from './refusal.js';

const root = mkdtempSync(join(tmpdir(), 'goodput-physics-'));
const pair = evidencePair();
let n = 0;

async function refusalsWith(optimized: SweepResult): Promise<string[]> {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const d = packReceipt(join(dir, 'r.json'), { ...pair, optimized, quality: measuredQualityFixture({ ...pair, optimized }) });
  const r = await recomputeReceipt(d.text, dir, '2026-07-01');
  return r.ok ? [] : r.refusals.map((x) => x.message);
}

const atLevel = (c: number, edit: (r: StoredRecord, i: number) => StoredRecord) => (rs: StoredRecord[]) => {
  let i = 0;
  return rs.map((r) => (r.concurrency === c && !r.warmup ? edit(r, i++) : r));
};

const cases: Array<[string, Forgery, string, Rule]> = [
  [
    'ten times the output cap per request',
    { records: atLevel(2, (r) => ({ ...r, outputTokens: r.outputTokens * 10 })) },
    'evidence.optimized: run 1 records[c=2] record seq 1: states 160 output tokens; the contract caps each request at 16',
    'output-cap',
  ],
  [
    'a million tokens a second on one stream',
    { records: atLevel(1, (r, i) => (i === 0 ? { ...r, chunkNs: r.chunkNs.map((_, k) => (r.chunkNs[0] as number) + k * 1000) } : r)) },
    'evidence.optimized: run 1 records[c=1] record seq 1: streams 15 tokens after its first chunk at 1,000,000 tok/s',
    'stream-rate',
  ],
  [
    'every token of a stream at one instant',
    { records: atLevel(4, (r, i) => (i === 3 ? { ...r, chunkNs: r.chunkNs.map(() => r.chunkNs[0] as number) } : r)) },
    'records[c=4] record seq 4: streams 15 tokens after its first chunk at one instant',
    'stream-rate',
  ],
  [
    'a chunk carrying more tokens than any stream chunk',
    { records: atLevel(1, (r, i) => (i === 0 ? { ...r, chunkTokens: r.chunkTokens.map((t, k) => (k === 0 ? 300 : t)) } : r)) },
    'records[c=1] record seq 1: chunk 0 carries 300 tokens, above the limit of 256',
    'stream-rate',
  ],
  [
    'chunk counts the server never reported',
    {
      records: (rs) =>
        rs.map((r) =>
          r.seq === 2 && r.concurrency === 1 ? { ...r, chunkTokensExact: false, chunkTokens: r.chunkTokens.map((t, k) => (k === 1 ? 2 : t)) } : r,
        ),
    },
    'records[c=1] record seq 2: chunk 1 carries 2 tokens, but chunk counts not reported by the server are 1 each',
    'stream-rate',
  ],
  [
    "only some of a level's requests kept",
    { records: (rs) => rs.filter((r) => !(r.concurrency === 2 && r.seq >= 6)) },
    'evidence.optimized: run 1 records[c=2]: hold 5 measured requests; the contract runs 8 per level',
    'level-count',
  ],
  [
    'the warm-up dropped',
    { records: (rs) => rs.filter((r) => !(r.concurrency === 4 && r.warmup)) },
    'records[c=4]: hold 0 warm-ups; the contract runs 1 per level',
    'level-count',
  ],
  [
    'one record duplicated under a new sequence number',
    {
      records: (rs) => [
        ...rs.filter((r) => !(r.concurrency === 1 && r.seq === 8)),
        { ...(rs.find((r) => r.concurrency === 1 && r.seq === 3) as StoredRecord), seq: 8 },
      ],
    },
    'records[c=1] record seq 8: carries request id "req-1-3", already used at concurrency 1',
    'unique-records',
  ],
  [
    'one record stated twice under its own number',
    { records: (rs) => rs.map((r) => (r.concurrency === 2 && r.seq === 5 ? { ...r, seq: 4, requestId: 'other' } : r)) },
    'records[c=2] record seq 4: appears twice in its level',
    'unique-records',
  ],
  [
    'one impossible record hidden among good ones (first token before the send)',
    { records: atLevel(4, (r, i) => (i === 5 ? { ...r, sendNs: (r.firstTokenNs as number) + 1, targetSendNs: (r.firstTokenNs as number) + 1 } : r)) },
    // The one record schema every reader uses refuses it first, naming the record and field.
    'chunkNs.0: is before the request was sent',
    'schema',
  ],
  [
    'chunks out of order',
    { records: atLevel(1, (r, i) => (i === 2 ? { ...r, chunkNs: [...r.chunkNs].reverse() } : r)) },
    'records.3.chunkNs.1: is before the chunk before it',
    'schema',
  ],
  [
    "a lighter workload under the contract's hash (half the forced output)",
    { records: atLevel(4, (r) => ({ ...r, outputTokens: 8, chunkNs: r.chunkNs.slice(0, 8), chunkTokens: r.chunkTokens.slice(0, 8) })) },
    'records[c=4] record seq 1: stopped for length after 8 tokens; the contract forces every output to 16',
    'output-cap',
  ],
  [
    'a timeline compressed so a single stream runs requests side by side',
    {
      records: atLevel(1, (r, i) => {
        const shift = i * 100e6;
        return {
          ...r,
          targetSendNs: r.targetSendNs - shift,
          sendNs: r.sendNs - shift,
          headersNs: (r.headersNs as number) - shift,
          firstTokenNs: (r.firstTokenNs as number) - shift,
          firstAnswerNs: (r.firstAnswerNs as number) - shift,
          chunkNs: r.chunkNs.map((t) => t - shift),
          endNs: (r.endNs as number) - shift,
        };
      }),
    },
    'records[c=1]: have 8 requests in flight at once; a closed loop at concurrency 1 never has more',
    'in-flight',
  ],
  [
    'both contracts rewritten to 10,000 requests a level and 4,096-token outputs over the same records',
    {
      contract: (c) => {
        c.workload.requestsPerLevel = 10_000;
        c.workload.outputTokens = 4096;
      },
      run: (r) => {
        r.requestsPerLevel = 10_000;
        r.outputTokens = 4096;
      },
    },
    'records[c=1]: hold 8 measured requests; the contract runs 10000 per level',
    'level-count',
  ],
  [
    "a run's SLO tightened while its contract is unchanged",
    {
      run: (r) => {
        r.slo = { ttftMs: { p: 95, max: 1 } };
      },
    },
    'evidence.optimized: run 1 run.slo: states {"ttftMs":{"max":1,"p":95}}, the hash-checked contract {"ttftMs":{"max":100,"p":95}}',
    'contract-speaks',
  ],
  [
    "a run's requests per level rewritten",
    {
      run: (r) => {
        r.requestsPerLevel = 6;
      },
    },
    'run 1 run.requestsPerLevel: states 6',
    'contract-speaks',
  ],
  [
    'a level dropped with its records',
    { levels: (ls) => ls.filter((l) => l.concurrency !== 4), records: (rs) => rs.filter((r) => r.concurrency !== 4) },
    'run 1 levels: are concurrency 1, 2; the contract runs 1, 2, 4',
    'contract-speaks',
  ],
  [
    'a level forged client-bound by a lower budget',
    { levels: (ls) => ls.map((l) => (l.concurrency === 4 ? { ...l, clientBound: { ...l.clientBound, budgetMs: 0.001 } } : l)) },
    'levels[c=4].clientBound.budgetMs: states 0.001; goodput run judges every level with 10 ms',
    'contract-speaks',
  ],
  [
    'a level forged client-bound by a stall longer than the level',
    {
      levels: (ls) => ls.map((l) => (l.concurrency === 4 ? { ...l, clientBound: { ...l.clientBound, loopDelayMs: { p50: 1, p99: 90_000, max: 90_000 } } } : l)),
    },
    'levels[c=4].clientBound.loopDelayMs: states a stall of 90000 ms in a level whose records span',
    'client-bound-evidence',
  ],
  [
    'a busy share above a whole core',
    { levels: (ls) => ls.map((l) => (l.concurrency === 2 ? { ...l, clientBound: { ...l.clientBound, clientCpuPct: 250 } } : l)) },
    'levels[c=2].clientBound.clientCpuPct: states 250 %',
    'client-bound-evidence',
  ],
];

describe('impossible records and off-contract facts are refused, naming the record or field and the rule', () => {
  it("the forger's untouched output passes (the forger itself changes nothing)", async () => {
    expect(await refusalsWith(forge(pair.optimized, {}))).toEqual([]);
  });
  for (const [what, forgery, names, rule] of cases) {
    it(what, async () => {
      const messages = await refusalsWith(forge(pair.optimized, forgery));
      expect(
        messages.find((m) => m.includes(names) && m.endsWith(`[rule: ${rule}]`)),
        messages.join('\n'),
      ).toBeDefined();
    });
  }
  it('a flood of impossible records is listed up to a bound and counted', async () => {
    const messages = await refusalsWith(forge(pair.optimized, { records: (rs) => rs.map((r) => ({ ...r, outputTokens: 999 })) }));
    expect(messages.filter((m) => m.includes('output-cap')).length).toBeLessThanOrEqual(13);
    expect(messages.some((m) => /and \d+ more impossible records like these/.test(m))).toBe(true);
  });
});
