/**
 * A primed cache condition as a user runs it: against a fresh simulator with
 * no warm-up, a warm cell's first measured request finds nothing cached and a
 * primed cell's finds its shared prefix, the prime kept on each level; with
 * `--reset-cache-between levels` every level is emptied first, then primed.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SweepResult, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli as inProcess } from '../test-support/cli-in-process.js';

let dir: string;
const sims: SimServer[] = [];
/** Nothing is stored: a test never writes to a data folder outside its temp folder. */
const cli = (args: string[]) => inProcess([...args, '--no-save']);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'goodput-prime-'));
  writeFileSync(
    join(dir, 'prompts.jsonl'),
    ['alpha beta gamma', 'delta epsilon zeta', 'eta theta iota'].map((p) => JSON.stringify({ prompt: p })).join('\n') + '\n',
  );
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

/** A cell per cache condition given, one request per level and no warm-up, on a simulator of its own. */
async function run(name: string, cache: object, levels: number[], flags: string[] = []): Promise<SweepResult> {
  const s = await startSimulator({ prefillBaseMs: 1, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });
  sims.push(s);
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    stringify({
      version: 1,
      server: { url: s.url },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'jsonl', path: join(dir, 'prompts.jsonl') }, outputTokens: 8, cache, requestsPerLevel: 1, warmup: 0 },
      load: { levels },
      slo: { ttftMs: { p: 95, max: 60_000 } },
      hardware: { label: 'SimGPU 80GB' },
    }),
  );
  const out = join(dir, `${name}.json`);
  const ran = await cli(['run', path, '--json', out, ...flags]);
  expect(ran.code).toBe(0);
  return sweepResultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
}

/** The cached prompt tokens of each level's first (and only) measured request, in the cell given. */
const firstCached = (r: SweepResult, cell: number) => (r.matrix?.cells[cell]?.levels ?? []).map((l) => l.cachedPromptTokens?.mean);
const primeCall = (answer: RegExp) => ({
  hook: 'prime',
  at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  route: 'POST /v1/chat/completions',
  status: 200,
  ms: expect.any(Number),
  answer: expect.stringMatching(answer),
});

describe('a primed cache condition', () => {
  it("shows cached tokens from the first measured request, where a warm cell's first finds none", async () => {
    // A cold cell first: its salted prompts leave nothing of the shared prefix in the cache.
    const warm = await run('warm', [{ kind: 'cold' }, { kind: 'warm', sharedPrefixTokens: 32 }], [1]);
    expect(firstCached(warm, 1)).toEqual([0]);
    expect(warm.matrix?.cells[1]?.levels[0]?.serverHooks).toBeUndefined();

    const primed = await run('primed', [{ kind: 'cold' }, { kind: 'primed', sharedPrefixTokens: 32 }], [1]);
    const cell = primed.matrix?.cells[1];
    expect(cell?.key).toMatchObject({ cache: 'primed', sharedPrefixTokens: 32 });
    expect(firstCached(primed, 1)[0]).toBeGreaterThan(0);
    // One prime (times defaults to 1), itself sent to a cache without the prefix; none for the cold cell.
    expect(cell?.levels[0]?.serverHooks).toEqual([primeCall(/^\d+ prompt tokens, 0 cached$/)]);
    expect(primed.matrix?.cells[0]?.levels[0]?.serverHooks).toBeUndefined();
    expect(primed.matrix?.table.rows.map((row) => row[3])).toEqual(['cold', 'primed 32']);
  });

  it('with --reset-cache-between levels: each level emptied, then primed as many times as the contract says', async () => {
    const r = await run('reset', { kind: 'primed', sharedPrefixTokens: 32, times: 2 }, [1, 2], ['--reset-cache-between', 'levels']);
    // One cell: the result's levels are its own.
    const levels = r.levels;
    expect(levels).toHaveLength(2);
    for (const l of levels) {
      expect(l.serverHooks?.map((c) => c.hook)).toEqual(['reset-cache', 'prime', 'prime']);
      // The first prime finds the emptied cache, the second what the first left.
      expect(l.serverHooks?.[1]).toEqual(primeCall(/^\d+ prompt tokens, 0 cached$/));
      expect(l.serverHooks?.[2]).toEqual(primeCall(/^\d+ prompt tokens, [1-9]\d* cached$/));
      expect(l.cachedPromptTokens?.mean).toBeGreaterThan(0);
    }
  });
});
