/** The simulator's streamed and non-streamed response shapes and output lengths, over real HTTP. It bounds the gap between events of one write (< 1 ms), so it runs in the sequential timing pass. */
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { firstChoice, streamPost, tokenEvents, words, type ReceivedEvent, type StreamResult } from '../test-support/sim-test-client.js';
import { wallClock } from '../test-support/wall-clock.js';

const FAST = { prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const MODEL = 'goodput-sim-1';
const sim = useSimulators(FAST);
const chat = (extra: Record<string, unknown> = {}) => ({
  model: MODEL,
  messages: [{ role: 'user', content: 'tell me a story please' }],
  stream: true,
  ...extra,
});
const delta = (e: ReceivedEvent) => (firstChoice(e)?.['delta'] ?? {}) as Record<string, string | undefined>;
const usageOf = (r: StreamResult) =>
  r.events.find((e) => Array.isArray(e.json?.['choices']) && (e.json?.['choices'] as unknown[]).length === 0)?.json?.['usage'] as
    Record<string, unknown> | undefined;
type ChatBody = { choices: Array<{ message: { content: string; reasoning_content: string | null } }>; usage: unknown };
const text = (r: StreamResult, field: string) =>
  tokenEvents(r)
    .map((e) => delta(e)[field] ?? '')
    .join('');

describe('streaming chat completions', () => {
  it('sends the role chunk with the first token, token chunks, the finish chunk, the usage-only chunk, then [DONE]', async () => {
    const s = await sim();
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 5, ignore_eos: true, stream_options: { include_usage: true } }));
    expect(r.status).toBe(200);
    expect(r.contentType).toMatch(/^text\/event-stream/);
    const [role, ...rest] = r.events;
    expect(role?.json).toMatchObject({
      object: 'chat.completion.chunk',
      model: MODEL,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }],
    });
    wallClock((rest[0]?.atMs ?? Infinity) - (role?.atMs ?? 0), 'role to first token event (ms)').toBeLessThan(1); // one write, one read
    const tokens = tokenEvents(r);
    expect(tokens).toHaveLength(5);
    expect(tokens.map((e) => firstChoice(e)?.['finish_reason'])).toEqual([null, null, null, null, 'length']);
    expect(tokens.every((e) => /^( [a-z]+)+$/.test(delta(e).content ?? ''))).toBe(true);
    const ids = new Set(r.events.filter((e) => e.json).map((e) => e.json?.['id']));
    expect(ids.size).toBe(1);
    expect(r.events.at(-2)?.json).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 5,
        completion_tokens: 5,
        total_tokens: 10,
        prompt_tokens_details: { cached_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(r.events.at(-1)?.data).toBe('[DONE]');
    expect(r.events).toHaveLength(1 + 5 + 1 + 1);
    expect(tokens.some((e) => 'usage' in (e.json ?? {}))).toBe(false);
  });

  it('packs tokensPerChunk tokens per decode step (the first token comes alone from prefill)', async () => {
    const s = await sim({ tokensPerChunk: 4 });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 21, ignore_eos: true, stream_options: { include_usage: true } }));
    expect(tokenEvents(r).map((e) => words(delta(e).content ?? ''))).toEqual([1, 4, 4, 4, 4, 4]);
    expect(usageOf(r)?.['completion_tokens']).toBe(21);
  });

  it('emits exactly the cap with ignore_eos; max_completion_tokens wins over max_tokens', async () => {
    const s = await sim({ naturalOutputTokens: { min: 5, max: 8 } });
    const a = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 50, ignore_eos: true }));
    expect(words(text(a, 'content'))).toBe(50);
    const b = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 10, max_completion_tokens: 7, ignore_eos: true }));
    expect(words(text(b, 'content'))).toBe(7);
  });

  it('stops naturally within the profile range, never before min_tokens, and at the cap with "length"', async () => {
    const s = await sim({ naturalOutputTokens: { min: 5, max: 8 } });
    for (let i = 0; i < 5; i++) {
      const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 100 }));
      const n = words(text(r, 'content'));
      expect(n).toBeGreaterThanOrEqual(5);
      expect(n).toBeLessThanOrEqual(8);
      expect(firstChoice(tokenEvents(r).at(-1) as ReceivedEvent)?.['finish_reason']).toBe('stop');
    }
    const min = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 100, min_tokens: 30 }));
    expect(words(text(min, 'content'))).toBe(30);
    expect(firstChoice(tokenEvents(min).at(-1) as ReceivedEvent)?.['finish_reason']).toBe('stop');
    const capped = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 3 }));
    expect(words(text(capped, 'content'))).toBe(3);
    expect(firstChoice(tokenEvents(capped).at(-1) as ReceivedEvent)?.['finish_reason']).toBe('length');
  });

  it('is deterministic for a seed: same lengths and words on a fresh server', async () => {
    const run = async (seed: number) => {
      const s = await sim({ seed, naturalOutputTokens: { min: 5, max: 40 } });
      const out: string[] = [];
      for (let i = 0; i < 3; i++) out.push(text(await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 100 })), 'content'));
      return out;
    };
    const first = await run(7);
    expect(await run(7)).toEqual(first);
    expect(await run(8)).not.toEqual(first);
  });

  it('streams reasoning first (counted in usage) unless a request turns thinking off', async () => {
    const s = await sim({ reasoningTokens: 6 });
    const on = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 10, ignore_eos: true, stream_options: { include_usage: true } }));
    expect(words(text(on, 'reasoning_content'))).toBe(6);
    expect(words(text(on, 'content'))).toBe(4);
    const firstAnswer = tokenEvents(on).findIndex((e) => delta(e).content !== undefined);
    expect(
      tokenEvents(on)
        .slice(0, firstAnswer)
        .every((e) => delta(e).reasoning_content !== undefined),
    ).toBe(true);
    expect(usageOf(on)).toMatchObject({ completion_tokens: 10, completion_tokens_details: { reasoning_tokens: 6 } });
    const switches = [{ chat_template_kwargs: { enable_thinking: false } }, { chat_template_kwargs: { thinking: false } }, { reasoning_effort: 'none' }];
    for (const sw of switches) {
      const off = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 10, ignore_eos: true, stream_options: { include_usage: true }, ...sw }));
      expect(text(off, 'reasoning_content')).toBe('');
      expect(usageOf(off)).toMatchObject({ completion_tokens: 10, completion_tokens_details: { reasoning_tokens: 0 } });
    }
  });

  it('puts reasoning in the field of the configured stream shape', async () => {
    const s = await sim({ reasoningTokens: 3, streamShape: 'reasoning' });
    const r = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 5, ignore_eos: true }));
    expect(words(text(r, 'reasoning'))).toBe(3);
    expect(text(r, 'reasoning_content')).toBe('');
  });

  it('carries cumulative usage on every chunk with continuous_usage_stats (only with include_usage)', async () => {
    const s = await sim({ tokensPerChunk: 3 });
    const r = await streamPost(
      s.url,
      '/v1/chat/completions',
      chat({ max_tokens: 10, ignore_eos: true, stream_options: { include_usage: true, continuous_usage_stats: true } }),
    );
    const chunks = r.events.filter((e) => (e.json?.['choices'] as unknown[] | undefined)?.length === 1);
    expect(chunks[0]?.json?.['usage']).toEqual({ prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 });
    let seen = 0;
    for (const e of chunks.slice(1)) {
      seen += words(delta(e).content ?? '');
      expect((e.json?.['usage'] as Record<string, number>)['completion_tokens']).toBe(seen);
    }
    expect(seen).toBe(10);
    const alone = await streamPost(s.url, '/v1/chat/completions', chat({ max_tokens: 4, stream_options: { continuous_usage_stats: true } }));
    expect(alone.events.some((e) => e.json !== null && 'usage' in e.json)).toBe(false);
  });

  it('serves /v1/completions with text_completion chunks and no role chunk', async () => {
    const s = await sim();
    const r = await streamPost(s.url, '/v1/completions', {
      model: MODEL,
      prompt: 'one two three',
      stream: true,
      max_tokens: 4,
      ignore_eos: true,
      stream_options: { include_usage: true },
    });
    expect(r.events[0]?.json).toMatchObject({ object: 'text_completion', choices: [{ index: 0, finish_reason: null }] });
    expect(tokenEvents(r).map((e) => words(firstChoice(e)?.['text'] as string))).toEqual([1, 1, 1, 1]);
    expect(usageOf(r)).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });
    expect(r.done).toBe(true);
  });
});

describe('non-streaming responses', () => {
  it('answers the whole chat completion after the full simulated time, with usage', async () => {
    const s = await sim({ prefillBaseMs: 40, decodeStepMs: 10, reasoningTokens: 2 });
    const t0 = performance.now();
    const res = await fetch(`${s.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(chat({ stream: false, max_tokens: 6, ignore_eos: true })) });
    const elapsed = performance.now() - t0;
    const body = (await res.json()) as ChatBody;
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(elapsed).toBeGreaterThanOrEqual(40 + 5 * 10 - 1);
    expect(body).toMatchObject({ object: 'chat.completion', model: MODEL, choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant' } }] });
    expect(words(body.choices[0]?.message.reasoning_content ?? '')).toBe(2);
    expect(words(body.choices[0]?.message.content ?? '')).toBe(4);
    expect(body['usage']).toMatchObject({ prompt_tokens: 5, completion_tokens: 6, completion_tokens_details: { reasoning_tokens: 2 } });
  });

  it('answers completions with choices[0].text', async () => {
    const s = await sim();
    const res = await fetch(`${s.url}/v1/completions`, { method: 'POST', body: JSON.stringify({ model: MODEL, prompt: ['a b', 'c'], max_tokens: 3 }) });
    const body = (await res.json()) as { choices: Array<{ text: string }> };
    expect(body).toMatchObject({ object: 'text_completion', usage: { prompt_tokens: 3, completion_tokens: 3 } });
    expect(words(body.choices[0]?.text ?? '')).toBe(3);
  });
});
