import { describe, expect, it } from 'vitest';
import { buildRequestBody } from './request-body.js';
import { resolveTarget } from './target.js';
import type { RequestSpec } from './types.js';

const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 256, forceLength: false, thinking: false };
const body = (s: Partial<RequestSpec>): Record<string, unknown> => JSON.parse(buildRequestBody({ ...spec, ...s })) as Record<string, unknown>;

describe('buildRequestBody', () => {
  it('builds a streamed chat request with thinking off', () => {
    expect(body({})).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 256,
      max_completion_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it('builds a completions request: prompt, no chat template kwargs', () => {
    const b = body({ endpoint: 'completions', thinking: true });
    expect(b.prompt).toBe('hi');
    expect(b.messages).toBeUndefined();
    expect(b.chat_template_kwargs).toBeUndefined();
  });

  it('forces the length and passes sampling settings', () => {
    const b = body({ forceLength: true, thinking: true, temperature: 0, seed: 7 });
    expect(b).toMatchObject({ ignore_eos: true, min_tokens: 256, temperature: 0, seed: 7, chat_template_kwargs: { enable_thinking: true } });
  });

  it('merges extraBody last but keeps streaming with usage on', () => {
    const b = body({
      extraBody: { stream: false, top_k: 1, stream_options: { continuous_usage_stats: true }, chat_template_kwargs: { reasoning_effort: 'low' } },
    });
    expect(b).toMatchObject({
      stream: true,
      top_k: 1,
      stream_options: { include_usage: true, continuous_usage_stats: true },
      chat_template_kwargs: { enable_thinking: false, reasoning_effort: 'low' },
    });
  });
});

describe('resolveTarget', () => {
  it('accepts the base URL with or without /v1 and keeps a path prefix', () => {
    for (const u of ['http://127.0.0.1:8000', 'http://127.0.0.1:8000/', 'http://127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1/']) {
      expect(resolveTarget({ baseUrl: u })).toMatchObject({ origin: 'http://127.0.0.1:8000', prefix: '' });
    }
    expect(resolveTarget({ baseUrl: 'https://h.example/openai/v1' })).toMatchObject({ origin: 'https://h.example', prefix: '/openai' });
  });

  it('puts the key only in the Authorization header and redacts it from text', () => {
    const t = resolveTarget({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk-secret-123' });
    expect(t.authHeaders).toEqual({ authorization: 'Bearer sk-secret-123' });
    expect(t.redact('bad key sk-secret-123!')).toBe('bad key [redacted]!');
    expect(t.displayUrl).not.toContain('sk-secret');
  });

  it('rejects URLs that are not http(s) with a plain message', () => {
    expect(() => resolveTarget({ baseUrl: 'localhost:8000' })).toThrow(/http/);
    expect(() => resolveTarget({ baseUrl: 'not a url' })).toThrow(/not a valid URL/);
  });
});

describe('buildRequestBody for dialects', () => {
  it('drops keys that extraBody sets to undefined', () => {
    const b = body({ extraBody: { max_tokens: undefined, min_tokens: undefined } });
    expect(b).not.toHaveProperty('max_tokens');
    expect(b.max_completion_tokens).toBe(256);
  });
});
