/**
 * Every bound of the one record schema, fed its value and one past it: the
 * value is accepted and the one past is refused naming the field, so no reader
 * (files, worker rows, imports) computes on a record a stream could not produce.
 */
import { describe, expect, it } from 'vitest';
import { RECORD_BOUNDS as B, itlPerTokenMs, parseRawRecord, type RequestRecord } from './index.js';

const base = (): RequestRecord => ({
  seq: 0,
  concurrency: 1,
  warmup: false,
  targetSendNs: 0,
  sendNs: 0,
  headersNs: 1e6,
  firstTokenNs: 2e6,
  firstAnswerNs: 2e6,
  chunkNs: [2e6, 3e6],
  chunkTokens: [1, 1],
  chunkTokensExact: true,
  endNs: 4e6,
  outputTokens: 2,
  outputTokenSource: 'usage',
  reasoningTokens: null,
  reasoningChunks: 0,
  promptTokens: 16,
  cachedPromptTokens: null,
  finishReason: 'length',
  httpStatus: 200,
  outcome: { kind: 'ok' },
});

type Edit = (r: RequestRecord, past: boolean) => void;
const bounds: Array<[string, string, Edit]> = [
  [
    'seq',
    'seq',
    (r, p) => {
      r.seq = B.seq + (p ? 1 : 0);
    },
  ],
  [
    'outputTokens',
    'outputTokens',
    (r, p) => {
      r.outputTokens = B.tokens + (p ? 1 : 0);
    },
  ],
  [
    'reasoningTokens',
    'reasoningTokens',
    (r, p) => {
      r.reasoningTokens = B.tokens + (p ? 1 : 0);
    },
  ],
  [
    "one chunk's tokens",
    'chunkTokens.0',
    (r, p) => {
      r.chunkTokens = [B.tokens - 1 + (p ? 2 : 0), 1];
    },
  ],
  [
    "the chunks' token sum",
    'chunkTokens',
    (r, p) => {
      r.chunkTokens = [B.tokens - 1, 1 + (p ? 1 : 0)];
    },
  ],
  [
    'chunk count',
    'chunkNs',
    (r, p) => {
      const n = B.chunks + (p ? 1 : 0);
      r.chunkNs = new Array<number>(n).fill(3e6);
      r.chunkTokens = new Array<number>(n).fill(0);
    },
  ],
  [
    'promptTokens',
    'promptTokens',
    (r, p) => {
      r.promptTokens = B.promptTokens + (p ? 1 : 0);
    },
  ],
  [
    'cachedPromptTokens',
    'cachedPromptTokens',
    (r, p) => {
      r.cachedPromptTokens = B.promptTokens + (p ? 1 : 0);
    },
  ],
  [
    'reasoningChunks',
    'reasoningChunks',
    (r, p) => {
      r.reasoningChunks = B.chunks + (p ? 1 : 0);
    },
  ],
  [
    'an instant',
    'endNs',
    (r, p) => {
      r.endNs = B.instantNs + (p ? 2 : 0);
    },
  ],
  [
    'finishReason',
    'finishReason',
    (r, p) => {
      r.finishReason = 'x'.repeat(B.finishReasonChars + (p ? 1 : 0));
    },
  ],
  [
    'a failure message',
    'outcome.message',
    (r, p) => {
      r.outcome = { kind: 'stream-error', message: 'x'.repeat(B.messageChars + (p ? 1 : 0)) };
    },
  ],
  [
    'chunks in order',
    'chunkNs.1',
    (r, p) => {
      r.chunkNs = [2e6, p ? 2e6 - 1 : 2e6];
    },
  ],
  [
    'first token after the send',
    'firstTokenNs',
    (r, p) => {
      r.sendNs = p ? 2e6 + 1 : 2e6;
      r.targetSendNs = r.sendNs;
      r.headersNs = null;
      r.chunkNs = [2e6 + 1, 3e6];
    },
  ],
  [
    'the end after the last chunk',
    'chunkNs',
    (r, p) => {
      r.endNs = p ? 3e6 - 1 : 3e6;
    },
  ],
  [
    'as many chunk counts as chunks',
    'chunkTokens',
    (r, p) => {
      r.chunkTokens = p ? [1, 1, 1] : [1, 1];
    },
  ],
];

describe('the record schema', () => {
  it.each(bounds)('accepts %s at its bound and refuses one past it, naming the field', (_what, field, edit) => {
    const at = base();
    edit(at, false);
    const ok = parseRawRecord(at);
    expect(ok.ok ? '' : ok.message).toBe('');
    const past = base();
    edit(past, true);
    const bad = parseRawRecord(past);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message.startsWith(`${field}:`), bad.message).toBe(true);
  });

  it('refuses chunkTokens [1e9, 1e9] (a forged record that once made a reader allocate per token and abort)', () => {
    const r = { ...base(), chunkTokens: [1e9, 1e9], outputTokens: 2e9 };
    const parsed = parseRawRecord(r);
    expect(parsed.ok).toBe(false);
    // What the bound lets through stays within one entry per token of a real stream.
    expect(itlPerTokenMs({ ...base(), chunkTokens: [1, B.tokens - 1] }).length).toBe(B.tokens - 1);
  });

  it('reads a record of an earlier version whose instants have fractions (its hash covers them as written)', () => {
    const r = { ...base(), sendNs: 0.25, headersNs: 1e6 + 0.5, chunkNs: [2e6 + 0.125, 3e6], endNs: 4e6 + 0.75 };
    const parsed = parseRawRecord(r);
    expect(parsed.ok && parsed.record.chunkNs).toEqual([2e6 + 0.125, 3e6]);
  });

  it('refuses non-finite and non-number instants', () => {
    for (const v of [Infinity, -Infinity, NaN, '1']) expect(parseRawRecord({ ...base(), sendNs: v }).ok).toBe(false);
  });

  it('keeps the traceparent ids a record carries, and refuses ids that are not lower-case hex of their length', () => {
    const ids = { traceId: 'ab'.repeat(16), spanId: 'cd'.repeat(8) };
    const parsed = parseRawRecord({ ...base(), ...ids });
    expect(parsed.ok && { traceId: parsed.record.traceId, spanId: parsed.record.spanId }).toEqual(ids);
    expect(parseRawRecord({ ...base(), ...ids, traceId: 'AB'.repeat(16) })).toEqual({
      ok: false,
      message: 'traceId: traceId must be 32 lower-case hex digits',
    });
    expect(parseRawRecord({ ...base(), ...ids, spanId: 'cd'.repeat(9) })).toEqual({ ok: false, message: 'spanId: spanId must be 16 lower-case hex digits' });
  });

  it('keeps the LoRA adapter a record names, and refuses a name that could not have been sent', () => {
    const parsed = parseRawRecord({ ...base(), adapter: 'sql-lora' });
    expect(parsed.ok && parsed.record.adapter).toBe('sql-lora');
    expect(parseRawRecord({ ...base(), adapter: 'sql\u001b[2Jlora' })).toEqual({
      ok: false,
      message: 'adapter: an adapter name is visible ASCII without spaces, commas or =',
    });
    expect(parseRawRecord({ ...base(), adapter: 'x'.repeat(257) })).toEqual({
      ok: false,
      message: 'adapter: adapter name length 257 is above the limit of 256 characters in the name of one LoRA adapter (--lora)',
    });
  });

  it('keeps the ramp mark of a warm-up, and refuses a measured request that says it was sent during the ramp', () => {
    const parsed = parseRawRecord({ ...base(), warmup: true, ramp: true });
    expect(parsed.ok && parsed.record.ramp).toBe(true);
    expect(parseRawRecord({ ...base(), ramp: true })).toEqual({
      ok: false,
      message: 'ramp: marks a request sent during the ramp, which is kept out of every number: warmup must be true',
    });
    expect(parseRawRecord({ ...base(), warmup: true, ramp: false }).ok).toBe(false);
  });
});
