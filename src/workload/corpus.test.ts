import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCellPrompts } from './cell-prompts.js';
import { sha256Hex } from './content-hash.js';
import { loadCorpus } from './corpus.js';
import { expandMatrix } from './matrix-cells.js';
import { seededSample } from './sample.js';
import { approximateCounter } from './token-counter.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-corpus-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const words = approximateCounter();

describe('JSONL corpora', () => {
  const text = '{"prompt": "say hello", "output_tokens": 12}\n\n{"prompt": "count to ten please", "id": 7}\n';
  it('reads prompts and optional output lengths, and records the content hash', async () => {
    const c = await loadCorpus('jsonl', file('ok.jsonl', text), words);
    expect(c.items).toEqual([
      { text: 'say hello', outputTokens: 12 },
      { text: 'count to ten please', outputTokens: undefined },
    ]);
    expect(c.sha256).toBe(sha256Hex(text));
  });
  const bad: Array<[string, string, RegExp]> = [
    ['a line that is not JSON', '{"prompt": "a"}\n{nope\n', /bad1.jsonl:2: not JSON/],
    ['a line without a prompt', '{"prompt": "a"}\n{"text": "b"}\n', /bad2.jsonl:2: prompt: prompt must be a string/],
    ['a bad output length', '{"prompt": "a", "output_tokens": 2.5}\n', /bad3.jsonl:1: output_tokens: output_tokens must be a whole number/],
    ['an empty file', '\n', /bad4.jsonl: holds no prompt/],
  ];
  bad.forEach(([what, body, message], i) => {
    it(`names ${what}`, async () => {
      await expect(loadCorpus('jsonl', file(`bad${i + 1}.jsonl`, body), words)).rejects.toThrow(message);
    });
  });
  it('names an unreadable file', async () => {
    await expect(loadCorpus('jsonl', join(dir, 'missing.jsonl'), words)).rejects.toThrow(/corpus .*missing.jsonl: cannot read \(ENOENT\)/);
  });
});

describe('ShareGPT dumps', () => {
  it('takes the first human turn as the prompt and the reply after it as the expected length', async () => {
    const dump = JSON.stringify([
      {
        id: 'a',
        conversations: [
          { from: 'human', value: 'what is two plus two' },
          { from: 'gpt', value: 'it is four of course' },
        ],
      },
      { id: 'b', conversations: [{ from: 'gpt', value: 'orphan reply' }] },
      { id: 'c', conversations: [{ from: 'user', value: 'hi' }] },
    ]);
    const c = await loadCorpus('sharegpt', file('share.json', dump), words);
    expect(c.items).toEqual([
      { text: 'what is two plus two', outputTokens: 5 },
      { text: 'hi', outputTokens: undefined },
    ]);
    expect(c.skipped).toBe(1);
  });
  it('names a malformed entry', async () => {
    await expect(loadCorpus('sharegpt', file('bad.json', '[{"conversations": 3}]'), words)).rejects.toThrow(
      /bad.json: entry 1: conversations: conversations must be a list/,
    );
  });
});

describe('seeded sampling and cell prompts', () => {
  it('draws distinct items first, the same for a seed, and goes round when asked for more', () => {
    const pool = ['a', 'b', 'c', 'd'];
    const s = seededSample(pool, 4, 3);
    expect([...s].sort()).toEqual(pool);
    expect(seededSample(pool, 4, 3)).toEqual(s);
    expect(seededSample(pool, 10, 3)).toHaveLength(10);
  });
  it('cold: the salt first; warm: the shared prefix first, then the salt', async () => {
    const cold = await buildCellPrompts(words, {
      source: { kind: 'synthetic', tokens: 32 },
      cache: { kind: 'cold' },
      count: 3,
      seed: 1,
      salt: 'x',
      outputFromCorpus: false,
    });
    expect(cold.map((p) => p.text.split(' ')[0])).toEqual(['rxn0', 'rxn1', 'rxn2']);
    expect(cold.every((p) => p.text.split(' ').length === 32)).toBe(true);
    const warm = await buildCellPrompts(words, {
      source: { kind: 'synthetic', tokens: 32 },
      cache: { kind: 'warm', sharedPrefixTokens: 16 },
      count: 2,
      seed: 1,
      salt: 'x',
      outputFromCorpus: false,
    });
    const [a, b] = warm.map((p) => p.text.split(' '));
    expect(a?.slice(0, 16)).toEqual(b?.slice(0, 16));
    expect(a?.[16]).toBe('rxn0');
    expect(b?.[16]).toBe('rxn1');
    expect(a).toHaveLength(32);
  });
  it('corpus prompts carry their own output length when asked, and a missing one is an error', async () => {
    const items = [
      { text: 'one two', outputTokens: 7 },
      { text: 'three', outputTokens: 9 },
    ];
    const plan = { source: { kind: 'corpus' as const, items }, cache: { kind: 'cold' as const }, count: 2, seed: 1, salt: 's', outputFromCorpus: true };
    const built = await buildCellPrompts(words, plan);
    expect(built.map((p) => p.outputTokens).sort()).toEqual([7, 9]);
    await expect(buildCellPrompts(words, { ...plan, source: { kind: 'corpus', items: [{ text: 'x' }] } })).rejects.toThrow(/no expected output length/);
  });
});

describe('matrix expansion', () => {
  it('runs prompt lengths, then output lengths ascending, then cache conditions as listed', () => {
    const cells = expandMatrix({
      prompts: { kind: 'synthetic', tokens: [512, 128] },
      outputTokens: [256, 128],
      cache: [{ kind: 'cold' }, { kind: 'warm', sharedPrefixTokens: 64 }],
    });
    expect(cells.map((c) => `${c.promptTokens}/${c.outputTokens}/${c.cache.kind}`)).toEqual([
      '128/128/cold',
      '128/128/warm',
      '128/256/cold',
      '128/256/warm',
      '512/128/cold',
      '512/128/warm',
      '512/256/cold',
      '512/256/warm',
    ]);
    expect(cells.map((c) => c.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
