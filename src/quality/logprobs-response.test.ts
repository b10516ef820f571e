/** Logprobs shapes: recorded llama-server bodies, vLLM's completions map and echo, and bad answers. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEchoLogprobs, parseFirstTokenTop } from './logprobs-response.js';

const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('parseFirstTokenTop', () => {
  it('reads the list shape of a recorded llama-server chat answer', () => {
    expect(parseFirstTokenTop(fixture('llama-chat-logprobs.json'))).toEqual([
      { token: '"', logprob: -1.204972267150879 },
      { token: 'H', logprob: -2.3761987686157227 },
    ]);
  });

  it('reads the list shape of a recorded llama-server completions answer', () => {
    expect(parseFirstTokenTop(fixture('llama-completions-logprobs.json'))).toEqual([
      { token: ',', logprob: -0.03180075064301491 },
      { token: ' there', logprob: -3.5467028617858887 },
    ]);
  });

  it('reads the completions map shape (vLLM, SGLang)', () => {
    const body = { choices: [{ text: ' Paris', logprobs: { tokens: [' Paris'], token_logprobs: [-0.1], top_logprobs: [{ ' Paris': -0.1, ' Lyon': -2.5 }] } }] };
    expect(parseFirstTokenTop(body)).toEqual([
      { token: ' Paris', logprob: -0.1 },
      { token: ' Lyon', logprob: -2.5 },
    ]);
  });

  it('says what is missing or malformed, naming the field', () => {
    expect(parseFirstTokenTop({ choices: [{ logprobs: null }] })).toBe('the answer has no choices[0].logprobs');
    expect(parseFirstTokenTop({ error: 'nope' })).toBe('the answer has no choices[0].logprobs');
    expect(parseFirstTokenTop({ choices: [{ logprobs: { content: [{ top_logprobs: [{ token: 'a', logprob: 'x' }] }] } }] })).toMatch(
      /^choices\[0\]\.logprobs\.content\[0\]\.top_logprobs\[0\]\.logprob: /,
    );
    expect(parseFirstTokenTop({ choices: [{ logprobs: { content: [] } }] })).toMatch(/^choices\[0\]\.logprobs\.content: /);
    expect(parseFirstTokenTop({ choices: [{ logprobs: { text_offset: [] } }] })).toMatch(/has neither content\[0\]\.top_logprobs nor top_logprobs\[0\]/);
  });
});

describe('parseEchoLogprobs', () => {
  const echo = (tokens: string[], lps: Array<number | null>, completion?: number) => ({
    choices: [{ logprobs: { tokens, token_logprobs: lps } }],
    ...(completion === undefined ? {} : { usage: { completion_tokens: completion } }),
  });

  it('keeps the prompt part: drops the first (null) token and the generated ones', () => {
    expect(parseEchoLogprobs(echo(['The', ' cat', ' sat', ' down'], [null, -2, -1.5, -0.5], 1), 1)).toEqual({ tokens: [' cat', ' sat'], logprobs: [-2, -1.5] });
  });

  it('drops a leading BOS as well, and falls back to `generated` without usage', () => {
    expect(parseEchoLogprobs(echo(['<s>', 'The', ' cat', ' sat'], [null, null, -2, -1]), 1)).toEqual({ tokens: [' cat'], logprobs: [-2] });
  });

  it('says why there are no prompt logprobs', () => {
    expect(parseEchoLogprobs(fixture('llama-completions-logprobs.json'), 1)).toMatch(/has no token_logprobs \(this engine does not return prompt logprobs\)/);
    expect(parseEchoLogprobs(echo([' a'], [-0.2], 1), 1)).toMatch(/covers only the generated tokens: the server ignored echo/);
    expect(parseEchoLogprobs(echo(['a', ' b'], [null, -1, -2]), 1)).toMatch(/has 2 tokens but 3 token_logprobs/);
    expect(parseEchoLogprobs(echo(['a', ' b', ' c', ' d'], [null, -1, null, -1], 1), 1)).toMatch(/token_logprobs\[2\] is null inside the prompt/);
    expect(parseEchoLogprobs({ choices: [{ logprobs: { tokens: [1], token_logprobs: [null] } }] }, 1)).toMatch(/^choices\[0\]\.logprobs\.tokens\[0\]: /);
    expect(parseEchoLogprobs({ choices: [] }, 1)).toBe('the answer has no choices[0].logprobs');
  });
});
