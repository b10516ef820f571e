// Golden transcripts of every engine through the real client over loopback: each one whole, split at seeded
// random byte boundaries, with CRLF line endings, with `:` keep-alive comments between events, and cut inside
// every multi-byte character (traps 1-6, 13, 17).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { dialects } from './dialects/registry.js';
import type { DialectKind } from './dialects/types.js';
import { createStreamingClient } from './streaming-client.js';
import { randomPieces, scripted, seededRandom, startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';

interface Golden {
  dialect: DialectKind;
  file: string;
  endpoint?: RequestSpec['endpoint'];
  /** Index in chunkNs of the first answer chunk, or null when there is none. */
  firstAnswer: number | null;
  expected: Partial<RequestRecord>;
  /** The stream-error message, for transcripts with an error inside the 200 stream. */
  error?: RegExp;
}

const ok = { kind: 'ok' } as const;
const g = (dialect: DialectKind, file: string, firstAnswer: number | null, expected: Partial<RequestRecord>, more: Partial<Golden> = {}): Golden => ({
  dialect,
  file,
  firstAnswer,
  expected,
  ...more,
});
const chunks = (n: number) => Array.from({ length: n }, () => 1);

const GOLDEN: Golden[] = [
  g('vllm', 'chat.sse', 0, {
    outcome: ok,
    outputTokens: 5,
    outputTokenSource: 'usage',
    chunkTokens: chunks(4),
    chunkTokensExact: false,
    promptTokens: 17,
    cachedPromptTokens: 0,
    reasoningTokens: null,
    finishReason: 'stop',
  }),
  g('vllm', 'reasoning.sse', 3, {
    outcome: ok,
    outputTokens: 14,
    reasoningChunks: 3,
    reasoningTokens: 9,
    chunkTokens: chunks(5),
    promptTokens: 12,
    finishReason: 'stop',
  }),
  g('vllm', 'multi-token.sse', 0, { outcome: ok, outputTokens: 8, chunkTokens: [1, 3, 1, 2], chunkTokensExact: true, promptTokens: 9, finishReason: 'length' }),
  g('vllm', 'error.sse', 0, { chunkTokens: [1, 1], outputTokenSource: 'chunks', finishReason: null }, { error: /EngineCore encountered an issue/ }),
  g('sglang', 'chat.sse', 0, {
    outcome: ok,
    outputTokens: 3,
    chunkTokens: chunks(3),
    promptTokens: 11,
    cachedPromptTokens: 7,
    reasoningTokens: 0,
    finishReason: 'stop',
  }),
  g('sglang', 'reasoning.sse', 3, { outcome: ok, outputTokens: 9, reasoningChunks: 3, reasoningTokens: 7, cachedPromptTokens: null, finishReason: 'stop' }),
  g('sglang', 'multi-token.sse', 0, { outcome: ok, outputTokens: 6, chunkTokens: [2, 2, 2], chunkTokensExact: true, finishReason: 'length' }),
  g('sglang', 'error.sse', 0, { chunkTokens: [1], finishReason: null }, { error: /CUDA error: out of memory/ }),
  g('tgi', 'chat.sse', 0, {
    outcome: ok,
    outputTokens: 6,
    chunkTokens: chunks(5),
    promptTokens: 20,
    cachedPromptTokens: null,
    reasoningTokens: null,
    finishReason: 'stop',
  }),
  g('tgi', 'reasoning.sse', 5, { outcome: ok, outputTokens: 9, chunkTokens: chunks(8), reasoningChunks: 5, reasoningTokens: null }),
  g('tgi', 'reasoning-lone-close.sse', 4, { outcome: ok, outputTokens: 7, chunkTokens: chunks(6), reasoningChunks: 4 }),
  g('tgi', 'error.sse', 0, { chunkTokens: [1, 1], finishReason: null }, { error: /CUDA out of memory/ }),
  g('llamacpp', 'chat.sse', 0, {
    outcome: ok,
    outputTokens: 12,
    chunkTokens: chunks(12),
    chunkTokensExact: false,
    promptTokens: 50,
    cachedPromptTokens: 0,
    finishReason: 'length',
  }),
  g('llamacpp', 'timings-per-token.sse', 0, {
    outcome: ok,
    outputTokens: 3,
    chunkTokens: [1, 1, 1],
    chunkTokensExact: true,
    promptTokens: 50,
    cachedPromptTokens: 11,
  }),
  g('llamacpp', 'reasoning.sse', 2, {
    outcome: ok,
    outputTokens: 4,
    chunkTokens: [1, 1, 2],
    chunkTokensExact: true,
    reasoningChunks: 2,
    reasoningTokens: null,
  }),
  g(
    'llamacpp',
    'error.sse',
    0,
    { chunkTokens: chunks(184), outputTokenSource: 'chunks', finishReason: null },
    { endpoint: 'completions', error: /does not match the expected Content-only format/ },
  ),
  g('ollama', 'chat.sse', 0, { outcome: ok, outputTokens: 3, chunkTokens: chunks(3), promptTokens: 14, cachedPromptTokens: null, finishReason: 'stop' }),
  g('ollama', 'reasoning.sse', 3, { outcome: ok, outputTokens: 9, reasoningChunks: 3, reasoningTokens: null }),
  g('ollama', 'error.sse', 0, { chunkTokens: [1] }, { error: /unexpected EOF/ }),
  g('ollama-native', 'native-chat.ndjson', 0, {
    outcome: ok,
    outputTokens: 3,
    outputTokenSource: 'usage',
    chunkTokens: chunks(3),
    promptTokens: 14,
    finishReason: 'stop',
  }),
  g('ollama-native', 'native-thinking.ndjson', 2, { outcome: ok, outputTokens: 4, reasoningChunks: 2, promptTokens: 12, finishReason: 'length' }),
  g('ollama-native', 'native-error.ndjson', 0, { chunkTokens: [1], finishReason: null }, { error: /CUDA error: out of memory/ }),
  g(
    'ollama-native',
    'native-generate.ndjson',
    0,
    { outcome: ok, outputTokens: 4, chunkTokens: chunks(4), promptTokens: 5, finishReason: 'length' },
    { endpoint: 'completions' },
  ),
  g('trtllm', 'chat.sse', 0, { outcome: ok, outputTokens: 3, chunkTokens: chunks(3), promptTokens: 10, cachedPromptTokens: 0, finishReason: 'stop' }),
  g('trtllm', 'reasoning.sse', 2, { outcome: ok, outputTokens: 6, reasoningChunks: 2, reasoningTokens: null }),
  g('trtllm', 'multi-token.sse', 0, { outcome: ok, outputTokens: 8, chunkTokens: [2, 4, 2], chunkTokensExact: true, finishReason: 'length' }),
  g('trtllm', 'error.sse', 0, { chunkTokens: [1] }, { error: /Executor worker returned error/ }),
  g('lmdeploy', 'chat.sse', 0, { outcome: ok, outputTokens: 3, chunkTokens: chunks(3), promptTokens: 9, cachedPromptTokens: 0, reasoningTokens: null }),
  g('lmdeploy', 'reasoning.sse', 2, { outcome: ok, outputTokens: 6, chunkTokens: chunks(3), reasoningChunks: 2, reasoningTokens: 4 }),
  g('lmdeploy', 'multi-token.sse', 0, { outcome: ok, outputTokens: 6, chunkTokens: chunks(3), chunkTokensExact: false, finishReason: 'length' }),
  g('lmdeploy', 'error.sse', 0, { chunkTokens: [1] }, { error: /context length exceeded/ }),
  g('openai', 'chat.sse', 0, {
    outcome: ok,
    outputTokens: 3,
    chunkTokens: chunks(3),
    promptTokens: 1024,
    cachedPromptTokens: 1024,
    reasoningTokens: 0,
    finishReason: 'stop',
  }),
  g('openai', 'reasoning.sse', 0, { outcome: ok, outputTokens: 130, chunkTokens: chunks(2), reasoningTokens: 128, reasoningChunks: 0 }),
  g('openai', 'multi-token.sse', 0, { outcome: ok, outputTokens: 6, chunkTokens: chunks(3), chunkTokensExact: false, finishReason: 'length' }),
  g('openai', 'error.sse', 0, { chunkTokens: [1] }, { error: /The server had an error/ }),
];

/** The directory of a dialect's transcripts (the native API's live with Ollama's). */
const dirOf = (d: DialectKind): string => dialects[d].engine;
const read = (x: Golden): Buffer => readFileSync(new URL(`./fixtures/engines/${dirOf(x.dialect)}/${x.file}`, import.meta.url));

/** Cuts `bytes` inside every multi-byte UTF-8 character (after its lead byte). */
function cutInsideCharacters(bytes: Buffer): Buffer[] {
  const pieces: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (((bytes[i] as number) & 0xc0) === 0xc0) {
      pieces.push(bytes.subarray(from, i + 1));
      from = i + 1;
    }
  }
  pieces.push(bytes.subarray(from));
  return pieces;
}

/** The ways each transcript is delivered: name and the reads it arrives in. */
function variants(body: Buffer, ndjson: boolean): Array<[string, Buffer[]]> {
  const text = body.toString('utf8');
  const random = seededRandom(body.length);
  const out: Array<[string, Buffer[]]> = [
    ['whole', [body]],
    ['random splits', randomPieces(body, random, 48)],
    ['small random splits', randomPieces(body, random, 5)],
    ['CRLF', randomPieces(Buffer.from(text.replace(/\n/g, '\r\n')), random, 64)],
    ['cut inside multi-byte characters', cutInsideCharacters(body)],
  ];
  if (!ndjson) out.push(['keep-alive comments', randomPieces(Buffer.from(text.replace(/\n\n/g, '\n\n: keep-alive\n\n')), random, 64)]);
  return out;
}

const meta: RequestMeta = { seq: 1, concurrency: 1, warmup: false, targetSendNs: 0 };
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

function expectOrdered(r: RequestRecord): void {
  let prev = r.sendNs;
  for (const t of [r.headersNs, ...r.chunkNs, r.endNs]) {
    expect(t as number).toBeGreaterThanOrEqual(prev);
    prev = t as number;
  }
  expect(r.firstTokenNs).toBe(r.chunkNs[0] ?? null);
  expect(r.chunkTokens).toHaveLength(r.chunkNs.length);
  expect(r.chunkTokens.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(r.outputTokens);
}

describe('golden transcripts of every engine, through the real client', () => {
  for (const x of GOLDEN) {
    it(`${x.dialect}: ${x.file}`, async () => {
      const dialect = dialects[x.dialect];
      const ndjson = dialect.api.framing === 'ndjson';
      const list = variants(read(x), ndjson);
      let served = 0;
      const server = await startServer((req, res) => {
        const steps = (list[served++]?.[1] ?? []).map((bytes) => ({ delayMs: 0, bytes }));
        return scripted(steps, { contentType: ndjson ? 'application/x-ndjson' : 'text/event-stream' })(req, res);
      });
      servers.push(server);
      const endpoint = x.endpoint ?? 'chat';
      const spec: RequestSpec = { endpoint, model: 'm', prompt: 'hi', maxTokens: 16, forceLength: false, thinking: false };
      for (const [name, pieces] of list) {
        const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect });
        const r = await client.send(spec, meta);
        await client.close();
        expect(r, `${name}: ${JSON.stringify(r.outcome)}`).toMatchObject({ httpStatus: 200, ...x.expected });
        if (x.error) expect(r.outcome).toEqual({ kind: 'stream-error', message: expect.stringMatching(x.error) });
        expect(r.firstAnswerNs, name).toBe(x.firstAnswer === null ? null : r.chunkNs[x.firstAnswer]);
        expectOrdered(r);
        expect(pieces.length).toBeGreaterThan(0);
      }
      expect(server.requests.map((q) => q.url)).toEqual(list.map(() => dialect.api.paths[endpoint]));
      expect(server.requests[0]?.headers.accept).toBe(dialect.api.accept);
    });
  }

  it("sends a request id in X-Request-Id and the engine's own header, and keeps it on the record", async () => {
    const server = await startServer(
      scripted([{ delayMs: 0, bytes: Buffer.from('data: {"choices":[{"delta":{"content":"a"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n') }]),
    );
    servers.push(server);
    const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 4, forceLength: false, thinking: false };
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects.openai });
    const made = await client.send(spec, meta);
    const given = await client.send(spec, { ...meta, requestId: 'bench-7' });
    const again = await client.send(spec, meta);
    await client.close();
    expect(made.requestId).toMatch(/^gp-[0-9a-f]{12}-0$/);
    expect(again.requestId).not.toBe(made.requestId);
    expect(given.requestId).toBe('bench-7');
    expect(server.requests.map((q) => [q.headers['x-request-id'], q.headers['x-client-request-id']])).toEqual([
      [made.requestId, made.requestId],
      ['bench-7', 'bench-7'],
      [again.requestId, again.requestId],
    ]);
    expect(dialects.vllm.api.requestIdHeaders).toEqual(['X-Request-Id']);
  });

  it('has a transcript with multi-byte text for every engine, so cutting inside characters is exercised', () => {
    for (const engine of new Set(GOLDEN.map((x) => dirOf(x.dialect)))) {
      const texts = GOLDEN.filter((x) => dirOf(x.dialect) === engine).map((x) => read(x));
      expect(
        texts.some((b) => cutInsideCharacters(b).length > 1),
        engine,
      ).toBe(true);
    }
  });
});
