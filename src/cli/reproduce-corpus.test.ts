/**
 * A receipt of runs that read a prompt corpus withholds the corpus's path and
 * names it by SHA-256 alone: `goodput reproduce` runs it again with the
 * reader's copy (`--file corpus=PATH`), refuses it unnamed (naming what to
 * give) and refuses another file (naming both hashes), before anything runs.
 * Real runs against simulators; the verdicts rest on the wall clock of tiny
 * runs and are not asserted here (reproduce.timing.test.ts judges them).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type SimServer, startSimulator } from '../sim/index.js';
import { cli } from '../test-support/cli-in-process.js';
import { sha256Hex } from '../workload/index.js';
import { EXIT } from './exit-codes.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-reproduce-corpus-'));
const CORPUS = ['alpha beta gamma', 'delta epsilon zeta eta', 'theta iota kappa lambda mu'].map((p) => JSON.stringify({ prompt: p })).join('\n') + '\n';
const corpus = join(dir, 'prompts.jsonl');
writeFileSync(corpus, CORPUS);
const other = join(dir, 'other.jsonl');
writeFileSync(other, `${JSON.stringify({ prompt: 'another corpus' })}\n`);
const receiptPath = join(dir, 'receipts', 'corpus.json');
const sims: SimServer[] = [];

async function runOn(sim: SimServer, name: string): Promise<string> {
  const contract = join(dir, `${name}.yaml`);
  writeFileSync(
    contract,
    stringify({
      version: 1,
      server: { url: sim.url, endpoint: 'chat' },
      model: { name: 'goodput-sim-1', revision: 'sim-1', tokenizer: { kind: 'server' }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'jsonl', path: corpus }, outputTokens: 8, requestsPerLevel: 3, warmup: 1 },
      load: { levels: [1, 2] },
      slo: { ttftMs: { p: 95, max: 5000 } },
      hardware: { label: 'SimGPU', gpuHourlyUsd: 2, priceAsOf: '2026-11-01' },
    }),
  );
  const json = join(dir, `${name}.json`);
  const r = await cli(['run', contract, '--json', json, '--no-save']);
  expect(r.code, r.stderr).toBe(0);
  return json;
}

beforeAll(async () => {
  const opts = { prefillBaseMs: 1, prefillMsPerToken: 0, decodeMsPerExtraSeq: 0 };
  sims.push(await startSimulator({ port: 0, ...opts, decodeStepMs: 30 }), await startSimulator({ port: 0, ...opts, decodeStepMs: 15 }));
  const [b, o] = [await runOn(sims[0] as SimServer, 'baseline'), await runOn(sims[1] as SimServer, 'optimized')];
  const made = await cli(['receipt', 'create', '--baseline', b, '--optimized', o, '--method', 'a faster decoder', '--out', receiptPath]);
  expect(made.code, made.stderr).toBe(0);
}, 60_000);
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
});

const reproduce = (more: string[]) =>
  cli(['reproduce', receiptPath, '--baseline-url', (sims[0] as SimServer).url, '--optimized-url', (sims[1] as SimServer).url, ...more]);

describe('reproducing a receipt whose corpus is withheld', () => {
  it("runs again with the reader's copy, the contract hashes the receipt's", async () => {
    const json = join(dir, 'claims.json');
    const r = await reproduce(['--file', `corpus=${corpus}`, '--json', json]);
    expect([EXIT.ok, EXIT.notReproduced], r.stderr).toContain(r.code);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as { claims: unknown[]; contractHashes: Record<string, { published: string; reproduced: string }> };
    expect(doc.claims.length).toBeGreaterThan(10);
    for (const s of ['baseline', 'optimized']) expect(doc.contractHashes[s]?.reproduced).toBe(doc.contractHashes[s]?.published);
  });

  it('is refused without the corpus, naming it, and with another file, naming both hashes', async () => {
    const missing = await reproduce([]);
    expect(missing.code).toBe(EXIT.usage);
    expect(missing.stderr).toBe(
      `goodput: baseline: contract.workload.prompts.path: the receipt withholds the corpus its contract reads (SHA-256 ${sha256Hex(CORPUS)}); give your copy with --file corpus=PATH\n`,
    );
    const wrong = await reproduce(['--file', `corpus=${other}`]);
    expect(wrong.code).toBe(EXIT.usage);
    expect(wrong.stderr).toContain(`hashes to ${sha256Hex(readFileSync(other))}, but the receipt's baseline run read ${sha256Hex(CORPUS)}`);
    expect(wrong.stdout).toBe('');
  });
});
