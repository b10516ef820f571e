/**
 * Preparing a contract's cells without a server: a tokenizer.json generated
 * here (exact lengths), its hash frozen into the resolved contract and checked
 * again, corpora with their own output lengths, and the cold/warm prompt layout.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { byteLevelBpe, writeTokenizer } from '../test-support/tiny-tokenizer.js';
import { COMMON_WORDS } from '../workload/index.js';
import { ContractError } from './errors.js';
import { validateContract } from './load-contract.js';
import { prepareCells } from './prepare-cells.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-prepare-'));
const bpe = byteLevelBpe(COMMON_WORDS.filter((_, i) => i % 3 !== 0));
const tokPath = writeTokenizer(dir, 'model', bpe);
const reference = new Tokenizer(bpe, {});
const count = (t: string) => reference.encode(t, { add_special_tokens: false }).ids.length;
const opts = { url: 'http://127.0.0.1:9', runId: 'run1', command: 'test' };
const contract = (over: Record<string, unknown> = {}, workload: Record<string, unknown> = {}) =>
  validateContract(
    {
      version: 1,
      server: { url: opts.url },
      model: { name: 'm', revision: 'r', tokenizer: { kind: 'file', path: tokPath }, precision: 'bf16', quantization: 'none' },
      workload: { prompts: { kind: 'synthetic', tokens: [48, 200] }, outputTokens: 16, requestsPerLevel: 3, warmup: 1, ...workload },
      load: { levels: [1, 2] },
      slo: { ttftMs: { p: 95, max: 500 } },
      hardware: { label: 'x' },
      ...over,
    },
    'test',
    dir,
  );

describe('preparing cells with a tokenizer.json', () => {
  it("every cell's sweep carries the contract's images (none without them)", async () => {
    const images = { perRequest: 2, width: 512, height: 512, format: 'png' };
    const p = await prepareCells(contract({}, { images }), opts);
    expect(p.cells.map((c) => c.spec.images)).toEqual([
      { ...images, delivery: 'data' },
      { ...images, delivery: 'data' },
    ]);
    expect((await prepareCells(contract(), opts)).cells.map((c) => c.spec.images)).toEqual([null, null]);
    // Each cell draws its own images from its own seed, the same on every run: seed 42, then 43.
    expect(p.cells.map((c) => c.spec.mediaSeed ?? c.spec.seed)).toEqual([42, 43]);
    expect((await prepareCells(contract({}, { images }), opts)).cells.map((c) => c.spec.mediaSeed ?? c.spec.seed)).toEqual([42, 43]);
  });

  it('a list of image settings is an axis: a cell per setting after the other axes, its key naming the images', async () => {
    const p = await prepareCells(
      contract({}, { prompts: { kind: 'synthetic', tokens: 48 }, images: ['none', { perRequest: 1, width: 64, height: 64, format: 'jpeg' }] }),
      opts,
    );
    expect(p.cells.map((c) => c.key.images)).toEqual([undefined, '1 image of 64×64 JPEG per request']);
    expect(p.cells.map((c) => c.spec.images)).toEqual([null, { perRequest: 1, width: 64, height: 64, format: 'jpeg', delivery: 'data' }]);
  });

  it('every prompt of every cell is exactly its target length, and each request has its own', async () => {
    const p = await prepareCells(contract({}, { cache: [{ kind: 'cold' }, { kind: 'warm', sharedPrefixTokens: 32 }] }), opts);
    expect(p.cells.map((c) => `${c.key.promptTokens}/${c.key.cache}`)).toEqual(['48/cold', '48/warm', '200/cold', '200/warm']);
    for (const cell of p.cells) {
      const items = cell.spec.prompts?.kind === 'list' ? cell.spec.prompts.items : [];
      expect(items).toHaveLength(2 * (1 + 3)); // two levels × (warm-up + 3)
      for (const item of items) expect(count(item.text)).toBe(cell.key.promptTokens);
      expect(new Set(items.map((i) => i.text)).size).toBe(items.length);
    }
    const warm = p.cells[1]?.spec.prompts;
    const texts = warm?.kind === 'list' ? warm.items.map((i) => i.text) : [];
    const prefix = texts[0]?.split(' rrun1x1n0')[0] ?? '';
    expect(count(prefix)).toBe(32);
    expect(texts.every((t) => t.startsWith(prefix))).toBe(true);
    const cold = p.cells[0]?.spec.prompts;
    expect(cold?.kind === 'list' ? cold.items[0]?.text.startsWith('rrun1x0n0 ') : false).toBe(true);
  });

  it('a primed cell: the prompts of a warm one, no cache control, and its prime the very prefix they start with', async () => {
    const p = await prepareCells(
      contract(
        {},
        {
          prompts: { kind: 'synthetic', tokens: 48 },
          cache: [
            { kind: 'warm', sharedPrefixTokens: 32 },
            { kind: 'primed', sharedPrefixTokens: 32, times: 3 },
          ],
        },
      ),
      opts,
    );
    expect(p.cells.map((c) => [c.key.cache, c.key.sharedPrefixTokens, c.spec.cache])).toEqual([
      ['warm', 32, 'warm'],
      ['primed', 32, 'warm'],
    ]);
    expect(p.cells[0]?.spec.serverHooks).toBeUndefined();
    const prime = p.cells[1]?.spec.serverHooks?.prime;
    expect(prime?.times).toBe(3);
    expect(count(prime?.prefix ?? '')).toBe(32);
    const primed = p.cells[1]?.spec.prompts;
    const texts = primed?.kind === 'list' ? primed.items.map((i) => i.text) : [];
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(t.startsWith(`${prime?.prefix} rrun1x1n`)).toBe(true);
    // The contract as resolved keeps the condition as written, times included.
    expect(p.resolved.workload.cache[1]).toEqual({ kind: 'primed', sharedPrefixTokens: 32, times: 3 });
  });

  it('a floor given as quality.floor reaches the SLOs the sweep records', async () => {
    const p = await prepareCells(contract({ quality: { metric: 'goodput-composite-v1', floor: 0.97 } }), opts);
    expect(p.cells[0]?.spec.slo).toMatchObject({ ttftMs: { p: 95, max: 500 }, qualityFloor: 0.97 });
  });

  it("freezes the tokenizer's hash, and refuses the same contract once the file changed", async () => {
    const own = writeTokenizer(dir, 'changing', bpe);
    const p = await prepareCells(
      contract({ model: { name: 'm', revision: 'r', tokenizer: { kind: 'file', path: own }, precision: 'bf16', quantization: 'none' } }),
      opts,
    );
    const frozen = p.resolved.model.tokenizer;
    expect(frozen).toMatchObject({ kind: 'file', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(p.tokenizer).toMatchObject({ kind: 'file', exact: true });
    writeFileSync(own, JSON.stringify(byteLevelBpe(COMMON_WORDS)));
    await expect(prepareCells(p.resolved, opts)).rejects.toSatisfy(
      (e: unknown) =>
        e instanceof ContractError &&
        e.code === 'mismatch' &&
        /^model\.tokenizer\.sha256: .*changing-tokenizer\.json has sha256 [0-9a-f]{64}, but the contract records/.test(e.message),
    );
  });

  it('a corpus with its own output lengths: each request carries its cap, and the hash is recorded', async () => {
    const corpus = join(dir, 'prompts.jsonl');
    writeFileSync(corpus, '{"prompt": "the city of water", "output_tokens": 5}\n{"prompt": "left hand", "output_tokens": 9}\n');
    const p = await prepareCells(contract({}, { prompts: { kind: 'jsonl', path: 'prompts.jsonl', seed: 3 }, outputTokens: 'corpus' }), opts);
    const cell = p.cells[0];
    expect(p.cells).toHaveLength(1);
    expect(cell?.key).toMatchObject({ prompt: 'jsonl prompts.jsonl', promptTokens: null, outputTokens: null });
    const items = cell?.spec.prompts?.kind === 'list' ? cell.spec.prompts.items : [];
    expect(items.every((i) => i.outputTokens === 5 || i.outputTokens === 9)).toBe(true);
    expect(items.every((i) => /^rrun1x0n\d+ (the city of water|left hand)$/.test(i.text))).toBe(true);
    expect(p.resolved.workload.prompts).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
});
