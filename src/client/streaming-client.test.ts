// Golden transcripts served over real sockets in seeded random pieces: the
// records the real client builds from them.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { createStreamingClient } from './streaming-client.js';
import { piecewise, startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const meta: RequestMeta = { seq: 3, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec = (endpoint: RequestSpec['endpoint']): RequestSpec => ({
  endpoint,
  model: 'm',
  prompt: 'Tell me a story.',
  maxTokens: 12,
  forceLength: false,
  thinking: false,
});

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(body: Buffer, seed: number, maxPiece: number, maxDelayMs = 2): Promise<TestServer> {
  const server = await startServer(piecewise(body, seed, maxPiece, maxDelayMs));
  servers.push(server);
  return server;
}

/** Instants are ordered: send ≤ written ≤ headers ≤ first token = first chunk ≤ … ≤ last chunk ≤ end. */
function expectMonotonic(r: RequestRecord): void {
  let prev = r.sendNs;
  for (const t of [r.writtenNs ?? null, r.headersNs, ...r.chunkNs, r.endNs]) {
    expect(t).not.toBeNull();
    expect(t as number).toBeGreaterThanOrEqual(prev);
    prev = t as number;
  }
  expect(r.firstTokenNs).toBe(r.chunkNs[0] ?? null);
  expect(r.chunkTokens).toHaveLength(r.chunkNs.length);
}

interface Case {
  file: string;
  endpoint: RequestSpec['endpoint'];
  expected: Partial<RequestRecord>;
  /** Index in chunkNs of the first answer chunk. */
  firstAnswer?: number;
  message?: RegExp;
}

const ok = { kind: 'ok' } as const;
const cases: Case[] = [
  {
    file: 'llama-server/10-chat-stream-usage.sse',
    endpoint: 'chat',
    firstAnswer: 0,
    expected: {
      outcome: ok,
      outputTokens: 12,
      outputTokenSource: 'usage',
      chunkTokensExact: false,
      promptTokens: 50,
      cachedPromptTokens: 0,
      finishReason: 'length',
      reasoningTokens: null,
      reasoningChunks: 0,
      httpStatus: 200,
    },
  },
  {
    file: 'llama-server/11-chat-stream-no-usage.sse',
    endpoint: 'chat',
    firstAnswer: 0,
    expected: {
      outcome: ok,
      outputTokens: 6,
      outputTokenSource: 'chunks',
      promptTokens: null,
      cachedPromptTokens: null,
      finishReason: 'length',
    },
  },
  {
    file: 'llama-server/12-completions-stream-usage.sse',
    endpoint: 'completions',
    firstAnswer: 0,
    expected: {
      outcome: ok,
      outputTokens: 12,
      outputTokenSource: 'usage',
      promptTokens: 5,
      cachedPromptTokens: 1,
      finishReason: 'length',
    },
  },
  {
    file: 'llama-server/13-completions-stream-no-usage.sse',
    endpoint: 'completions',
    firstAnswer: 0,
    expected: {
      outcome: ok,
      outputTokens: 6,
      outputTokenSource: 'usage',
      promptTokens: 5,
      cachedPromptTokens: 4,
      finishReason: 'length',
    },
  },
  {
    file: 'llama-server/22-midstream-error-random-model.sse',
    endpoint: 'completions',
    firstAnswer: 0,
    message: /server error in stream: The model produced output that does not match/,
    expected: {
      outputTokens: 184,
      outputTokenSource: 'chunks',
      finishReason: null,
      httpStatus: 200,
    },
  },
  {
    file: 'vllm/reasoning-usage.sse',
    endpoint: 'chat',
    firstAnswer: 3,
    expected: {
      outcome: ok,
      outputTokens: 23,
      outputTokenSource: 'usage',
      chunkTokens: [1, 1, 1, 1, 1, 1],
      reasoningChunks: 3,
      reasoningTokens: 12,
      promptTokens: 17,
      cachedPromptTokens: 16,
      finishReason: 'stop',
    },
  },
  {
    file: 'vllm/continuous-usage-crlf.sse',
    endpoint: 'chat',
    firstAnswer: 0,
    expected: {
      outcome: ok,
      outputTokens: 8,
      outputTokenSource: 'usage',
      chunkTokens: [1, 3, 1, 2],
      chunkTokensExact: true,
      promptTokens: 9,
      finishReason: 'length',
    },
  },
  {
    file: 'vllm/stream-error.sse',
    endpoint: 'chat',
    firstAnswer: 0,
    message: /illegal memory access/,
    expected: {
      chunkTokens: [1, 1],
      outputTokens: 2,
      outputTokenSource: 'chunks',
      finishReason: null,
    },
  },
  {
    file: 'mixed/trtllm-stray-space.sse',
    endpoint: 'completions',
    firstAnswer: 0,
    expected: {
      outcome: ok,
      chunkTokens: [1, 1, 1],
      outputTokens: 3,
      outputTokenSource: 'usage',
      finishReason: 'length',
    },
  },
  {
    file: 'mixed/sglang-reasoning-tokens.sse',
    endpoint: 'chat',
    firstAnswer: 2,
    expected: {
      outcome: ok,
      chunkTokens: [1, 1, 1],
      outputTokens: 6,
      reasoningChunks: 2,
      reasoningTokens: 4,
      promptTokens: 11,
      cachedPromptTokens: null,
      finishReason: 'stop',
    },
  },
  {
    file: 'mixed/ollama-reasoning-field.sse',
    endpoint: 'chat',
    firstAnswer: 1,
    expected: {
      outcome: ok,
      chunkTokens: [1, 1, 1],
      outputTokens: 3,
      reasoningChunks: 1,
      reasoningTokens: null,
      finishReason: 'stop',
    },
  },
];

describe('streaming client on golden transcripts', () => {
  for (const c of cases) {
    it(`records ${c.file}`, async () => {
      const body = fixture(c.file);
      for (const seed of [1, 2]) {
        const server = await serve(body, seed, body.length > 10_000 ? 700 : 48);
        const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
        const r = await client.send(spec(c.endpoint), meta);
        await client.close();
        expect(r).toMatchObject({ seq: 3, concurrency: 1, warmup: false, targetSendNs: 0, ...c.expected });
        if (c.message) expect(r.outcome).toEqual({ kind: 'stream-error', message: expect.stringMatching(c.message) });
        expect(r.chunkTokens.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(r.outputTokens);
        expect(r.firstAnswerNs).toBe(r.chunkNs[c.firstAnswer ?? 0]);
        expectMonotonic(r);
        const path = c.endpoint === 'chat' ? '/v1/chat/completions' : '/v1/completions';
        expect(server.requests[0]).toMatchObject({ url: path, headers: { 'content-type': 'application/json' } });
        expect(server.requests[0]?.headers.authorization).toBeUndefined();
      }
    });
  }

  it('counts chunks of the 22 transcript exactly, with multi-byte text split across reads', async () => {
    const body = fixture('llama-server/22-midstream-error-random-model.sse');
    const server = await serve(body, 9, 16, 0);
    const client = createStreamingClient({ baseUrl: `${server.url}/v1` }, { connections: 1 });
    const r = await client.send(spec('completions'), meta);
    await client.close();
    expect(r.chunkNs).toHaveLength(184);
    expect(r.outcome.kind).toBe('stream-error');
  });

  it('states every instant in whole nanoseconds, whatever the clock and the schedule give', async () => {
    const server = await serve(fixture('vllm/continuous-usage-crlf.sse'), 3, 40);
    let t = 0;
    // A clock and a scheduled instant with fractions, as performance.now() × 1e6 and a rate's offsets give.
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, clock: () => (t += 1000.37) });
    const r = await client.send(spec('chat'), { ...meta, targetSendNs: 12.5 });
    await client.close();
    const instants = [r.targetSendNs, r.sendNs, r.writtenNs, r.headersNs, r.firstTokenNs, r.firstAnswerNs, ...r.chunkNs, r.endNs];
    expect(instants.every((x) => x !== null && x !== undefined && Number.isInteger(x))).toBe(true);
    expect(r.targetSendNs).toBe(13);
    expectMonotonic(r);
  });

  it('serves many streams at once over a small pool', async () => {
    const server = await serve(fixture('vllm/continuous-usage-crlf.sse'), 5, 40);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 8 });
    const records = await Promise.all(Array.from({ length: 32 }, (_, seq) => client.send(spec('chat'), { ...meta, seq, concurrency: 32 })));
    await client.close();
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 32 }, (_, i) => i));
    for (const r of records) {
      expect(r).toMatchObject({ outcome: ok, chunkTokens: [1, 3, 1, 2], outputTokens: 8 });
      expectMonotonic(r);
    }
  });
});
