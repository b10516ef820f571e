/**
 * A level builds each request's prompt when it sends it, never the whole level
 * up front: with the largest request count the table allows and a stop after a
 * few sends, only those few prompts were ever read from the source. A closed
 * loop builds its next round in the client's quiet moments, while what is built
 * and not yet sent stays under a byte budget.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, type RequestRecord } from '../core/index.js';
import type { RequestSpec, StreamingClient } from '../client/index.js';
import { runLevel } from './run-level.js';
import { sweepSpecSchema } from './sweep-spec.js';

function record(seq: number, warmup: boolean, ns: number): RequestRecord {
  return {
    seq,
    concurrency: 2,
    warmup,
    targetSendNs: ns,
    sendNs: ns,
    headersNs: ns,
    firstTokenNs: ns,
    firstAnswerNs: ns,
    chunkNs: [ns],
    chunkTokens: [1],
    chunkTokensExact: false,
    endNs: ns + 1,
    outputTokens: 1,
    outputTokenSource: 'chunks',
    reasoningTokens: null,
    reasoningChunks: 0,
    promptTokens: null,
    cachedPromptTokens: null,
    finishReason: 'length',
    httpStatus: 200,
    outcome: { kind: 'ok' },
  };
}

describe('lazy request bodies', () => {
  it('reads a prompt per request sent, not per request planned', async () => {
    let reads = 0;
    const items = new Proxy([{ text: 'hello there' }], {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const spec = sweepSpecSchema.parse({ url: 'http://127.0.0.1:9', levels: [2], warmup: 1, prompts: { kind: 'list', items: [{ text: 'x' }] } });
    // Parsing copies the list: the counting one goes in afterwards.
    if (spec.prompts.kind === 'list') spec.prompts.items = items;
    const outer = new AbortController();
    const sent: RequestSpec[] = [];
    let ns = 0;
    const client: StreamingClient = {
      prepare: (spec, meta) => ({ spec, meta, wire: Buffer.alloc(0), bytes: 0, builtNs: 0 }),
      async send(s, meta) {
        sent.push('wire' in s ? s.spec : s);
        if (sent.length === 5) outer.abort();
        await new Promise((r) => setImmediate(r));
        return record(meta.seq, meta.warmup, ++ns);
      },
      openConnections: async () => 0,
      close: async () => {},
    };
    const run = await runLevel({
      client,
      spec,
      model: 'm',
      concurrency: 2,
      requests: LIMITS.requestsPerLevel.max,
      clock: () => ++ns,
      runId: 'r',
      signal: outer.signal,
      onRecord: () => {},
      checkServer: async () => null,
    });
    expect(sent.length).toBeLessThanOrEqual(6);
    expect(reads).toBe(sent.length);
    expect(run.records.length).toBe(sent.length);
  });

  /** A closed level of 2 streams, 8 requests, over a client whose built requests weigh `bytes` each; what it built ahead, and when. */
  async function aheadLevel(bytes: number, quietComes: 'between sends' | 'at the end' = 'between sends') {
    const spec = sweepSpecSchema.parse({ url: 'http://127.0.0.1:9', levels: [2], warmup: 0, prompts: { kind: 'list', items: [{ text: 'x' }] } });
    const quiet: Array<() => void> = [];
    const built: number[] = [];
    const builtQuietly: number[] = [];
    let inQuiet = false;
    const runQuiet = () => {
      inQuiet = true;
      for (const work of quiet.splice(0)) work();
      inQuiet = false;
    };
    let ns = 0;
    const client: StreamingClient = {
      prepare: (spec, meta) => {
        (inQuiet ? builtQuietly : built).push(meta.seq);
        return { spec, meta, wire: Buffer.alloc(0), bytes, builtNs: 0 };
      },
      whenQuiet: (work) => quiet.push(work),
      async send(_s, meta) {
        await new Promise((r) => setImmediate(r));
        // The quiet moment comes after the sends of this turn.
        if (quietComes === 'between sends') runQuiet();
        return record(meta.seq, meta.warmup, ++ns);
      },
      openConnections: async () => 0,
      close: async () => {},
    };
    await runLevel({
      client,
      spec,
      model: 'm',
      concurrency: 2,
      requests: 8,
      clock: () => ++ns,
      runId: 'r',
      signal: new AbortController().signal,
      onRecord: () => {},
      checkServer: async () => null,
    });
    runQuiet();
    return { built, builtQuietly };
  }

  it('builds the next round ahead in quiet moments, each request once', async () => {
    const { built, builtQuietly } = await aheadLevel(100);
    // The first round before the start; every later request a round ahead, in a quiet moment; none twice.
    expect(built).toEqual([0, 1]);
    expect(builtQuietly).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it('builds a request as it leaves once the requests built ahead weigh the budget', async () => {
    // 40 MiB each, over the 32 MiB budget alone: one is held built ahead at a time, the other built as it leaves.
    const { built, builtQuietly } = await aheadLevel(40 * 1024 * 1024);
    expect(builtQuietly).toEqual([2, 4, 6]);
    expect(built).toEqual([0, 1, 3, 5, 7]);
  });

  it('never builds ahead a request that already left (a quiet moment that came too late)', async () => {
    const { built, builtQuietly } = await aheadLevel(100, 'at the end');
    expect(builtQuietly).toEqual([]);
    expect(built).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
