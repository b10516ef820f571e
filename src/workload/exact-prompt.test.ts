/**
 * Synthetic prompts hit their token target exactly with a real tokenizer.json:
 * a byte-level BPE generated here (half the common words are one token, the
 * rest several), checked by an independent encode of the same file.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';
import { byteLevelBpe, writeTokenizer } from '../test-support/tiny-tokenizer.js';
import { WorkloadError } from './errors.js';
import { exactPrompt } from './exact-prompt.js';
import { COMMON_WORDS } from './synthetic-prompt.js';
import { approximateCounter, type TokenCounter } from './token-counter.js';
import { loadTokenizerFile } from './tokenizer-file.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-tok-'));
const json = byteLevelBpe(COMMON_WORDS.filter((_, i) => i % 2 === 0));
const path = writeTokenizer(dir, 'bpe', json);
const reference = new Tokenizer(json, {});
const tokens = (t: string) => reference.encode(t, { add_special_tokens: false }).ids.length;
let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenizerFile(path);
});

describe('exact-length prompts with a tokenizer.json', () => {
  it('records the file, its hash, and that counts are exact', () => {
    expect(counter.info).toMatchObject({ kind: 'file', exact: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });
  for (const target of [1, 2, 7, 64, 255, 512, 1000]) {
    it(`hits ${target} tokens exactly, with salts and a shared prefix`, async () => {
      for (const [lead, seed] of [
        ['', 1],
        ['r9f3a-c0n17', 2],
        ['the water of city left', 3],
      ] as const) {
        if (tokens(lead) > target) continue;
        const p = await exactPrompt(counter, target, lead, seed);
        expect(tokens(p)).toBe(target);
        expect(p.startsWith(lead)).toBe(true);
      }
    });
  }
  it('the approximation counts words (labelled as such)', async () => {
    const approx = approximateCounter();
    const p = await exactPrompt(approx, 40, 'rsalt', 5);
    expect(p.split(' ')).toHaveLength(40);
    expect(approx.info).toMatchObject({ kind: 'approximate', exact: false, label: expect.stringMatching(/^approximate/) });
  });
  it('refuses a target shorter than the fixed start', async () => {
    await expect(exactPrompt(counter, 2, 'the water of city left', 1)).rejects.toThrow(/fixed start of the prompt is \d+ tokens, more than the 2/);
  });
});

describe('tokenizer files that cannot be used', () => {
  it('names a missing file', async () => {
    await expect(loadTokenizerFile(join(dir, 'nope.json'))).rejects.toThrow(/tokenizer .*nope.json: cannot read \(ENOENT\)/);
  });
  it('names a file that is not JSON, or not a tokenizer', async () => {
    const notJson = join(dir, 'bad.json');
    writeFileSync(notJson, '{oops');
    await expect(loadTokenizerFile(notJson)).rejects.toSatisfy((e: unknown) => e instanceof WorkloadError && /not JSON/.test(e.message));
    const notTok = join(dir, 'other.json');
    writeFileSync(notTok, '{"hello": 1}');
    await expect(loadTokenizerFile(notTok)).rejects.toThrow(/not a usable tokenizer.json/);
  });
});
