/**
 * Synthetic prompts are exactly --prompt-tokens in the server's own tokens:
 * against an engine that reads llama.cpp's tokenize body and one that reads
 * vLLM's (neither counts words), every prompt is counted at exactly 256 by the
 * server (its usage on completions), the chat template's tokens are reported
 * apart, and a server without a tokenize route gets the approximate label and
 * the >5 % warning when its usage disagrees.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { LLAMA_TEMPLATE, type TokenizingServer, startTokenizingServer } from '../test-support/tokenizing-server.js';
import { renderResult } from './render-table.js';
import { tableCaption } from '../web/index.js';
import { runSweep } from '../runner/index.js';

const servers: TokenizingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const start = async (kind: 'llama' | 'vllm' | 'none') => {
  const s = await startTokenizingServer(kind);
  servers.push(s);
  return s;
};

async function sweep(url: string, endpoint: 'chat' | 'completions') {
  const records: RequestRecord[] = [];
  const result = await runSweep(
    {
      url,
      endpoint,
      levels: [1, 2],
      requestsPerLevel: 4,
      warmup: 1,
      promptTokens: 256,
      outputTokens: 4,
      clientThreads: 1,
      serverMetrics: false,
      gpuSource: 'none',
      clientBudgetMs: 1000,
    },
    {
      onEvent: (e) => {
        if (e.kind === 'level-end') records.push(...e.records);
      },
    },
  );
  return { result, records };
}

describe('exact prompt lengths', () => {
  for (const kind of ['llama', 'vllm'] as const) {
    it(`${kind}-like tokenize route: every prompt counted at exactly 256 by the server (completions)`, async () => {
      const s = await start(kind);
      const { result, records } = await sweep(s.url, 'completions');
      expect(records).toHaveLength(10);
      expect(records.map((r) => r.promptTokens)).toEqual(records.map(() => 256));
      expect(result.tokenizer).toMatchObject({ kind: 'server', exact: true });
      for (const l of result.levels) expect(l.promptTokens).toMatchObject({ mean: 256, sent: 256, templateTokens: 0 });
      expect(result.warnings.map((w) => w.code)).not.toContain('prompt-length-mismatch');
      expect(result.warnings.map((w) => w.code)).not.toContain('prompt-length-approximate');
    });
  }

  it("chat: the template's tokens are reported apart from the 256 sent", async () => {
    const s = await start('llama');
    const { result } = await sweep(s.url, 'chat');
    const added = LLAMA_TEMPLATE.perMessage + LLAMA_TEMPLATE.perRequest;
    for (const l of result.levels) expect(l.promptTokens).toMatchObject({ mean: 256 + added, sent: 256, templateTokens: added });
    const text = renderResult(result, false);
    expect(text).toContain(`prompts 256 tokens each, exact: the server's tokenizer`);
    expect(text).toContain(`the server counted ${(256 + added).toFixed(1)}: ${added.toFixed(1)} tokens of its own (chat template, BOS) reported apart`);
    expect(tableCaption({ promptTokens: 256, outputTokens: 4, thinking: false, requestsPerLevel: 4 }, result.levels)).toContain(
      `the server added ${added.toFixed(1)} tokens of its own`,
    );
  });

  it('with tools, the surplus is labelled as holding the tool definitions, and the header says the output was not forced', async () => {
    const s = await start('llama');
    const { result } = await sweep(s.url, 'chat');
    // The same levels as a run that offered tools (forcing off): what the server added holds the rendered definitions.
    const toolCalls = {
      requests: 0,
      valid: 0,
      invalid: 0,
      unparsed: 0,
      missing: 0,
      none: 0,
      parseRate: null,
      validRate: null,
      ttftToolMs: null,
      argumentsMs: null,
      argumentTokensMean: null,
    };
    const tools: typeof result = { ...result, run: { ...result.run, forceLength: false }, levels: result.levels.map((l) => ({ ...l, toolCalls })) };
    const text = renderResult(tools, false);
    expect(text).toMatch(/tokens of its own \(chat template, BOS, tool definitions\) reported apart/);
    expect(text.split('\n')[0]).toContain(`· output not forced, cap ${result.run.outputTokens} tokens ·`);
    expect(renderResult(result, false).split('\n')[0]).toContain(`· ${result.run.outputTokens} output tokens ·`);
    const caption = tableCaption({ promptTokens: 256, outputTokens: 4, thinking: false, requestsPerLevel: 4, forceLength: false }, tools.levels);
    expect(caption).toContain('tokens of its own (chat template, BOS, tool definitions)');
    expect(caption).toContain('output not forced, cap 4 tokens');
  });

  it('no tokenize route: words, labelled approximate on screen, page and JSON, and the >5 % warning', async () => {
    const s = await start('none');
    const { result, records } = await sweep(s.url, 'completions');
    // Words of common English, ⌈letters/4⌉ tokens each by this server: not 256.
    expect(records[0]?.promptTokens).not.toBe(256);
    expect(result.tokenizer).toMatchObject({ kind: 'approximate', exact: false });
    expect(result.tokenizer?.label).toMatch(/^approximate \(words; this server has no tokenizer route\): POST .*\/tokenize answered HTTP 404$/);
    const json = JSON.parse(JSON.stringify(result)) as typeof result;
    expect(json.levels[0]?.promptTokens.countedBy).toMatch(/^approximate \(words; this server has no tokenizer route\)/);
    const mismatch = json.warnings.filter((w) => w.code === 'prompt-length-mismatch');
    expect(mismatch).toHaveLength(2);
    expect(mismatch[0]?.message).toMatch(
      /^concurrency 1: the server counted [\d.]+ prompt tokens per request \(usage\.prompt_tokens\), [+-]\d+ % from the 256 asked for; the prompts were approximate \(words; this server has no tokenizer route\)/,
    );
    const text = renderResult(result, false);
    expect(text).toContain('prompts 256 tokens each, approximate (words; this server has no tokenizer route)');
    expect(text).toMatch(/warning: concurrency 1: the server counted/);
    expect(tableCaption({ promptTokens: 256, outputTokens: 4, thinking: false, requestsPerLevel: 4 }, result.levels)).toContain(
      '256-token synthetic prompts (approximate (words; this server has no tokenizer route)',
    );
  });
});
