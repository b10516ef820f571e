/**
 * Replay and sessions in the server's own tokens, as sweeps are: against a
 * server whose tokenizer is not words (llama.cpp's tokenize body, template
 * tokens on chat), every traced request is counted by the server at exactly
 * its traced length plus the template, which is reported apart; requests that
 * share hash ids share their leading text; a session's first user message of
 * 32 tokens is 32 tokens as counted; without a tokenize route the lengths are
 * labelled approximate. Answers that end short are judged against each
 * request's own cap, and warnings name the level on its axis.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { createStreamingClient } from '../client/index.js';
import { type SweepSpecInput, runSweep } from '../runner/index.js';
import { LLAMA_TEMPLATE, type TokenizingServer, startTokenizingServer } from '../test-support/tokenizing-server.js';
import { readTrace, replayParts, syntheticSessions } from '../workload/index.js';
import { tableCaption } from '../web/index.js';
import { renderResult } from './render-table.js';

const dir = mkdtempSync(join(tmpdir(), 'goodput-replay-tokens-'));
const servers: TokenizingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const start = async (kind: 'llama' | 'none', o: { short?: number } = {}) => {
  const s = await startTokenizingServer(kind, o);
  servers.push(s);
  return s;
};
const TEMPLATE = LLAMA_TEMPLATE.perMessage + LLAMA_TEMPLATE.perRequest;

// Requests 0 and 1 share their first 64-token block (id 1); 3 and 4 share two blocks; caps 16 to 64.
const ROWS = [
  { timestamp: 0, input_length: 100, output_length: 16, hash_ids: [1, 2] },
  { timestamp: 20, input_length: 90, output_length: 32, hash_ids: [1, 3] },
  { timestamp: 40, input_length: 30, output_length: 64, hash_ids: [4] },
  { timestamp: 60, input_length: 150, output_length: 16, hash_ids: [5, 6, 7] },
  { timestamp: 80, input_length: 140, output_length: 24, hash_ids: [5, 6, 8] },
];

async function replay(url: string, speeds: number[]) {
  const path = join(dir, 'trace.jsonl');
  writeFileSync(path, ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const trace = await readTrace(path);
  const sent: string[] = [];
  const records: RequestRecord[] = [];
  const spec: SweepSpecInput = {
    url,
    endpoint: 'chat',
    ...replayParts(trace, { blockTokens: 64, maxConcurrency: null }),
    levels: speeds,
    warmup: 0,
    requestsPerLevel: 'auto',
    cache: 'warm',
    clientThreads: 1,
    serverMetrics: false,
    gpuSource: 'none',
    clientBudgetMs: 1000,
  };
  const result = await runSweep(spec, {
    onEvent: (e) => {
      if (e.kind === 'level-end') records.push(...e.records);
    },
    // The prompts as they leave: the client is the real one, only watched.
    client: (s, connections, dialect) => {
      const c = createStreamingClient({ baseUrl: s.url, apiKey: undefined }, { connections, timeouts: s.timeouts, dialect });
      return {
        ...c,
        send: (req, meta, signal) => {
          sent.push(('wire' in req ? req.spec : req).prompt);
          return c.send(req, meta, signal);
        },
      };
    },
  });
  return { result, records, sent };
}

describe("replay in the server's tokens", () => {
  it('every request is counted by the server at its traced length plus the template, reported apart; shared ids share their text', async () => {
    const s = await start('llama');
    const { result, records, sent } = await replay(s.url, [1, 2]);
    expect(result.tokenizer).toMatchObject({ kind: 'server', exact: true });
    expect(records).toHaveLength(10);
    for (const r of records) expect(r.promptTokens).toBe((ROWS[r.seq]?.input_length as number) + TEMPLATE);
    const mean = ROWS.reduce((a, r) => a + r.input_length, 0) / ROWS.length;
    for (const l of result.levels) expect(l.promptTokens).toMatchObject({ mean: mean + TEMPLATE, sent: mean, templateTokens: TEMPLATE });
    expect(renderResult(result, false)).toContain(`prompts at the trace's own lengths (mean ${mean.toFixed(1)} tokens), exact: the server's tokenizer`);
    // The page's caption says the same.
    expect(tableCaption({ promptTokens: 256, outputTokens: 256, thinking: false, requestsPerLevel: 'auto' }, result.levels)).toMatch(
      new RegExp(
        `own prompt and output lengths \\(prompt lengths exact: the server's tokenizer .*; the server added ${TEMPLATE}\\.0 tokens of its own \\(chat template, BOS\\)\\)`,
      ),
    );
    // The first 64 tokens of requests 0 and 1 (block id 1) are the same text, and 3 and 4 share 128; 2 shares nothing.
    const level1 = sent.slice(0, 5);
    const lead = (a: string, b: string) => {
      let k = 0;
      while (k < a.length && a[k] === b[k]) k++;
      return a.slice(0, k);
    };
    expect(s.tokens(lead(level1[0] as string, level1[1] as string))).toBeGreaterThanOrEqual(63);
    expect(s.tokens(lead(level1[3] as string, level1[4] as string))).toBeGreaterThanOrEqual(127);
    // Beyond the level's salt word, which every prompt of the level starts with.
    const salt = (level1[0] as string).split(' ')[0] as string;
    expect(salt).toMatch(/^r[0-9a-f]{8}l1$/);
    expect(lead(level1[0] as string, level1[2] as string).length).toBeLessThanOrEqual(salt.length + 1);
    // The second speed starts with its own salt: nothing of it is the first speed's cache.
    expect(lead(level1[0] as string, sent[5] as string).length).toBeLessThan(salt.length);
  });

  it('without a tokenize route the lengths are labelled approximate and a usage far from them is warned about, on the speed axis', async () => {
    const s = await start('none');
    const { result } = await replay(s.url, [2]);
    expect(result.tokenizer?.label).toMatch(/^approximate \(words; this server has no tokenizer route\)/);
    expect(result.warnings.find((w) => w.code === 'prompt-length-approximate')?.message).toMatch(/^prompt lengths are approximate \(words;/);
    expect(result.warnings.find((w) => w.code === 'prompt-length-mismatch')?.message).toMatch(
      /^speed 2×: the server counted [\d.]+ prompt tokens per request .* from the 102 asked for/,
    );
  });

  it("answers that end short are judged against each request's own cap, on the speed axis", async () => {
    const s = await start('llama', { short: 1 });
    const { result } = await replay(s.url, [4]);
    const short = result.warnings.filter((w) => w.code === 'short-requests');
    expect(short).toHaveLength(1);
    expect(short[0]?.message).toMatch(/^speed 4×: 5 requests ended below their own output caps \(16–64 tokens\)/);
    expect(result.levels[0]?.outputTokens.short).toBe(5);
    expect(result.warnings.filter((w) => /^(concurrency|level) \d/.test(w.message))).toEqual([]);
  });
});

describe("sessions in the server's tokens", () => {
  it('a first user message of 32 tokens is 32 tokens as the server counts them', async () => {
    const s = await start('llama');
    const records: RequestRecord[] = [];
    const result = await runSweep(
      {
        url: s.url,
        endpoint: 'chat',
        levels: [1, 2],
        warmup: 0,
        requestsPerLevel: 'auto',
        cache: 'warm',
        clientThreads: 1,
        serverMetrics: false,
        gpuSource: 'none',
        clientBudgetMs: 1000,
        prompts: syntheticSessions({ sessions: 3, turns: [2, 2], userTokens: [32, 32], answerTokens: [4, 4], thinkS: [0, 0], seed: 5 }),
      },
      {
        onEvent: (e) => {
          if (e.kind === 'level-end') records.push(...e.records);
        },
      },
    );
    expect(result.tokenizer).toMatchObject({ kind: 'server', exact: true });
    const first = records.filter((r) => r.session?.turn === 0);
    expect(first).toHaveLength(6);
    for (const r of first) expect(r.promptTokens).toBe(32 + TEMPLATE);
    // Turn 2 carries turn 1, its 4-token answer (' a' four times) and a new message of 32.
    for (const r of records.filter((x) => x.session?.turn === 1))
      expect(r.promptTokens).toBe(32 + 4 + 32 + 3 * LLAMA_TEMPLATE.perMessage + LLAMA_TEMPLATE.perRequest);
    expect(result.levels[0]?.promptTokens.countedBy).toMatch(/^exact: the server's tokenizer/);
  });
});
