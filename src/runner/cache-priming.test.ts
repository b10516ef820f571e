/**
 * The prime of a primed cell, against a fake client: sent after the hooks' own
 * calls (a reset first) as the cell's endpoint asks, one output token and no
 * cache control, each request kept as a `prime` call; a request that fails
 * ends the level with the reason, and a cell without a prime leaves the hooks as they were.
 */
import { describe, expect, it } from 'vitest';
import type { RequestRecord, ServerHookCall } from '../core/index.js';
import { type RequestMeta, type RequestSpec, type StreamingClient, dialects } from '../client/index.js';
import { rec } from '../test-support/records.js';
import { withPriming } from './cache-priming.js';
import type { LevelHooks } from './level-loop.js';
import { type SweepSpecInput, sweepSpecSchema } from './sweep-spec.js';

const spec = (over: Partial<SweepSpecInput> = {}) =>
  sweepSpecSchema.parse({
    url: 'http://127.0.0.1:9',
    levels: [1, 2],
    endpoint: 'completions',
    serverHooks: { prime: { prefix: 'alpha beta gamma', times: 2 } },
    ...over,
  });

/** A client answering each request with the next outcome given (ok past the end), and keeping what it was sent. */
function fakeClient(outcomes: Array<RequestRecord['outcome']> = []): StreamingClient & { sent: Array<[RequestSpec, RequestMeta]> } {
  const sent: Array<[RequestSpec, RequestMeta]> = [];
  return {
    sent,
    prepare: (spec, meta) => ({ spec, meta, wire: Buffer.alloc(0), bytes: 0, builtNs: 0 }),
    send: async (s, meta) => {
      const outcome = outcomes[sent.length] ?? { kind: 'ok' };
      sent.push(['wire' in s ? s.spec : s, meta]);
      const r = rec({ sendMs: 10, chunksMs: [12], endMs: 13.5, outcome, promptTokens: 3 });
      return { ...r, httpStatus: outcome.kind === 'http-error' ? outcome.status : 200, cachedPromptTokens: sent.length === 1 ? 0 : 2 };
    },
    openConnections: async () => 0,
    close: async () => {},
  };
}

const ctx = (client: StreamingClient, signal = new AbortController().signal) => ({
  client,
  dialect: dialects.vllm,
  model: 'm',
  clock: () => 0,
  signal,
});

const reset: ServerHookCall = { hook: 'reset-cache', at: '2026-12-06T17:00:00.000Z', route: 'POST /reset_prefix_cache', status: 200, ms: 1, answer: '' };
const resetting: LevelHooks = {
  before: async () => ({ calls: [reset], failed: null }),
  after: async () => ({ calls: [], failed: null }),
};

describe('withPriming', () => {
  it('sends the prefix after the reset, one token and no cache salt, each request kept as a prime call', async () => {
    const client = fakeClient();
    const hooks = withPriming(resetting, spec({ cache: 'warm' }), ctx(client));
    const step = await hooks?.before(2, 1);
    expect(step?.failed).toBeNull();
    expect(step?.calls.map((c) => [c.hook, c.route, c.status, c.ms, c.answer])).toEqual([
      ['reset-cache', 'POST /reset_prefix_cache', 200, 1, ''],
      ['prime', 'POST /v1/completions', 200, 3.5, '3 prompt tokens, 0 cached'],
      ['prime', 'POST /v1/completions', 200, 3.5, '3 prompt tokens, 2 cached'],
    ]);
    expect(client.sent).toHaveLength(2);
    const [request, meta] = client.sent[0] ?? [];
    expect(request).toMatchObject({ endpoint: 'completions', model: 'm', prompt: 'alpha beta gamma', maxTokens: 1, forceLength: false });
    expect(request?.cacheSalt).toBeUndefined();
    expect(meta).toEqual({ seq: 0, concurrency: 2, warmup: true, targetSendNs: 0 });
    expect(await hooks?.after(2, 1)).toEqual({ calls: [], failed: null });
  });

  it('ends the level at the first request that fails, naming it, and sends no more', async () => {
    const client = fakeClient([{ kind: 'ok' }, { kind: 'http-error', status: 503, message: 'busy\u001b[31m now' }]);
    const step = await withPriming(null, spec({ serverHooks: { prime: { prefix: 'alpha', times: 5 } } }), ctx(client))?.before(4, 2);
    expect(client.sent).toHaveLength(2);
    expect(step?.calls.map((c) => [c.hook, c.status, c.answer])).toEqual([
      ['prime', 200, '3 prompt tokens, 0 cached'],
      ['prime', 503, 'http-error 503: busy now'],
    ]);
    expect(step?.failed).toBe(
      'the prime before level 4 failed at request 2 of 5 (http-error 503: busy now): the level would not start on its shared prefix cached',
    );
  });

  it('sends nothing after a reset that failed, nor once the run is stopped', async () => {
    const client = fakeClient();
    const failing: LevelHooks = { ...resetting, before: async () => ({ calls: [reset], failed: 'no reset' }) };
    expect(await withPriming(failing, spec(), ctx(client))?.before(1, 0)).toEqual({ calls: [reset], failed: 'no reset' });
    const stop = new AbortController();
    stop.abort();
    expect(await withPriming(null, spec(), ctx(client, stop.signal))?.before(1, 0)).toEqual({ calls: [], failed: null });
    expect(client.sent).toHaveLength(0);
  });

  it('leaves the hooks as they were for a cell that is not primed', () => {
    const plain = spec({ serverHooks: {} });
    expect(withPriming(resetting, plain, ctx(fakeClient()))).toBe(resetting);
    expect(withPriming(null, plain, ctx(fakeClient()))).toBeNull();
  });
});
