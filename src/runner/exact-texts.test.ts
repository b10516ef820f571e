/**
 * Traced prompts of exact lengths from blocks, with a real tokenizer.json whose
 * counts are not additive (a byte-level BPE: a common word is one token after a
 * space and several at the start of a text, so joining blocks moves the count):
 * every request, agent turn and session message is exactly its length by an
 * independent encode, requests naming the same leading ids share their leading
 * text, and each level starts with its own salt.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { beforeAll, describe, expect, it } from 'vitest';
import { byteLevelBpe, writeTokenizer } from '../test-support/tiny-tokenizer.js';
import { type AgentsSource, COMMON_WORDS, type PromptSource, type TokenCounter, loadTokenizerFile, syntheticSessions } from '../workload/index.js';
import { exactBlockSource } from './exact-texts.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-exact-texts-'));
const json = byteLevelBpe(COMMON_WORDS.filter((_, i) => i % 2 === 0));
const reference = new Tokenizer(json, {});
const tokens = (t: string) => reference.encode(t, { add_special_tokens: false }).ids.length;
let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadTokenizerFile(writeTokenizer(dir, 'bpe', json));
});

const lead = (a: string, b: string) => {
  let k = 0;
  while (k < a.length && a[k] === b[k]) k++;
  return a.slice(0, k);
};
const SALTS = ['abc123l1', 'abc123l4'];

describe('exact texts from blocks', () => {
  it('a trace: every request exactly its length, shared ids shared text, each level its own salt', async () => {
    const requests = [
      { p: 70, o: 4, h: [1, 2] },
      { p: 90, o: 4, h: [1, 3] },
      { p: 20, o: 4, h: [4] },
      { p: 100, o: 4, h: [5, 6] },
      { p: 64, o: 4, h: [5] },
      { p: 33, o: 4 },
      { p: 3, o: 4 },
    ];
    const src: PromptSource = { kind: 'trace', blockTokens: 32, requests };
    const built = await exactBlockSource(src, SALTS, counter, 1);
    if (built.kind !== 'trace') throw new Error('not a trace');
    for (const salt of SALTS) {
      const texts = built.texts?.[salt] as string[];
      expect(texts.map(tokens)).toEqual(requests.map((r) => r.p));
      expect(texts.slice(0, 6).every((t) => t.startsWith(`r${salt} `))).toBe(true);
      // Id 1 (32 tokens) opens requests 0 and 1 as one text, id 5 requests 3 and 4; request 2 shares only the salt.
      expect(tokens(lead(texts[0] as string, texts[1] as string))).toBeGreaterThanOrEqual(31);
      expect(tokens(lead(texts[3] as string, texts[4] as string))).toBeGreaterThanOrEqual(31);
      expect(lead(texts[0] as string, texts[2] as string).length).toBeLessThanOrEqual(`r${salt} `.length + 1);
    }
    expect(lead(built.texts?.[SALTS[0] as string]?.[0] as string, built.texts?.[SALTS[1] as string]?.[0] as string).length).toBeLessThan(`r${SALTS[0]}`.length);
  });

  it("an agent trace: each turn its whole context exactly, the next turn resending the previous one's blocks", async () => {
    const src: AgentsSource = {
      kind: 'agents',
      blockTokens: 16,
      context: null,
      sessions: [
        {
          name: 'a',
          line: 2,
          job: 0,
          parent: null,
          after: 0,
          atMs: 0,
          turns: [
            { p: 40, o: 2, h: [9], w: 0 },
            { p: 56, o: 2, h: [9], w: 0 },
          ],
        },
      ],
    };
    const built = await exactBlockSource(src, SALTS, counter, 1);
    if (built.kind !== 'agents') throw new Error('not agents');
    const [t0, t1] = built.texts?.[SALTS[0] as string]?.[0] as string[];
    expect([tokens(t0 as string), tokens(t1 as string)]).toEqual([40, 56]);
    // The shared block and the session's own full block b1 are the same text in both turns.
    expect(tokens(lead(t0 as string, t1 as string))).toBeGreaterThanOrEqual(31);
  });

  it("sessions: each user message exactly its length, the first starting with the session's own word", async () => {
    const src = syntheticSessions({ sessions: 3, turns: [2, 3], userTokens: [5, 40], answerTokens: [4, 4], thinkS: [0, 0], seed: 3 });
    const built = await exactBlockSource(src, SALTS, counter, 1);
    if (built.kind !== 'sessions') throw new Error('not sessions');
    for (const salt of SALTS) {
      for (const [id, s] of src.sessions.entries()) {
        const texts = built.texts?.[salt]?.[id] as string[];
        expect(texts.map(tokens)).toEqual(s.turns.map((t) => t.p));
        if (tokens(`r${salt}s${id}`) < (s.turns[0]?.p as number)) expect(texts[0]?.startsWith(`r${salt}s${id}`)).toBe(true);
      }
    }
  });
});
