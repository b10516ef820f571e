// Every failure class becomes a record with an outcome; send() never rejects.
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RequestRecord, rawRecordSchema, summarizeLevel } from '../core/index.js';
import { failureOutcome } from './failure.js';
import { createStreamingClient } from './streaming-client.js';
import { closedPort, scripted, startServer, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec, Target, Timeouts } from './types.js';

const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
const role = 'data: {"choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}\n\n';
const token = 'data: {"choices":[{"index":0,"delta":{"content":"a"},"finish_reason":null}]}\n\n';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

async function sendOnce(target: Target, timeouts: Partial<Timeouts> = {}, signal?: AbortSignal): Promise<RequestRecord> {
  const client = createStreamingClient(target, { connections: 1, timeouts });
  try {
    return await client.send(spec, meta, signal);
  } finally {
    await client.close();
  }
}

const reply =
  (status: number, body: string, type = 'application/json') =>
  (_req: unknown, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  };

describe('HTTP errors, classified by status', () => {
  const cases: Array<[number, string, string]> = [
    [
      500,
      '{"error":{"code":500,"message":"[json.exception.parse_error.101] parse error","type":"server_error"}}',
      '[json.exception.parse_error.101] parse error',
    ],
    [
      429,
      '{"object":"error","message":"Too many requests, retry later","type":"RateLimitError","code":429}',
      'Too many requests, retry later (not retried: the answer has no Retry-After)',
    ],
    [
      503,
      '{"error":"server busy, please try again. maximum pending requests exceeded"}',
      'server busy, please try again. maximum pending requests exceeded (not retried: the answer has no Retry-After)',
    ],
    [422, '{"error":"Input validation error: inputs too long","error_type":"validation"}', 'Input validation error: inputs too long'],
    [502, '<html><body>Bad Gateway</body></html>', 'HTTP 502 Bad Gateway: <html><body>Bad Gateway</body></html>'],
  ];
  for (const [status, body, message] of cases) {
    it(`${status} → http-error "${message.slice(0, 30)}…"`, async () => {
      const server = await serve(reply(status, body, body.startsWith('<') ? 'text/html' : 'application/json'));
      const r = await sendOnce({ baseUrl: server.url });
      expect(r.outcome).toEqual({ kind: 'http-error', status, message });
      expect(r).toMatchObject({ httpStatus: status, chunkNs: [], firstTokenNs: null, outputTokens: 0 });
      expect(r.headersNs).not.toBeNull();
    });
  }

  it('cuts long messages to 300 characters', async () => {
    const server = await serve(reply(400, JSON.stringify({ error: { message: 'x'.repeat(5000) } })));
    const r = await sendOnce({ baseUrl: server.url });
    expect(r.outcome.kind === 'http-error' && r.outcome.message.length).toBe(300);
  });
});

describe('transport failures', () => {
  it('connection refused → connection-error ECONNREFUSED in phase connect', async () => {
    const r = await sendOnce({ baseUrl: `http://127.0.0.1:${await closedPort()}` });
    expect(r.outcome).toMatchObject({ kind: 'connection-error', code: 'ECONNREFUSED', phase: 'connect' });
    // Never on the wire: no write instant, so no send lateness is judged for it.
    expect(r.writtenNs).toBeUndefined();
    expect(r.headersNs).toBeNull();
  });

  it('no headers in time → timeout in phase headers', async () => {
    const server = await serve(() => undefined);
    const r = await sendOnce({ baseUrl: server.url }, { headersMs: 300 });
    expect(r.outcome).toMatchObject({ kind: 'timeout', phase: 'headers' });
  });

  it('silence before the first token → timeout in phase first-token', async () => {
    const server = await serve(scripted([{ delayMs: 0, bytes: role }], { ending: 'hang' }));
    const r = await sendOnce({ baseUrl: server.url }, { idleMs: 300 });
    expect(r.outcome).toMatchObject({ kind: 'timeout', phase: 'first-token' });
  });

  it('silence after tokens → timeout in phase stream, keeping the tokens seen', async () => {
    const server = await serve(
      scripted(
        [
          { delayMs: 0, bytes: role },
          { delayMs: 0, bytes: token },
        ],
        { ending: 'hang' },
      ),
    );
    const r = await sendOnce({ baseUrl: server.url }, { idleMs: 300 });
    expect(r.outcome).toMatchObject({ kind: 'timeout', phase: 'stream' });
    expect(r.chunkNs).toHaveLength(1);
  });

  it('reads keep a stream alive past the idle limit: each moves the deadline on', async () => {
    const paced = Array.from({ length: 12 }, () => ({ delayMs: 50, bytes: token }));
    const server = await serve(scripted([{ delayMs: 0, bytes: role }, ...paced, { delayMs: 0, bytes: 'data: [DONE]\n\n' }]));
    const r = await sendOnce({ baseUrl: server.url }, { idleMs: 400 });
    expect(r.outcome).toEqual({ kind: 'ok' });
    // Longer than one idle limit in all, never that long without a byte.
    expect((r.endNs as number) - r.sendNs).toBeGreaterThan(400e6);
    expect(r.chunkNs).toHaveLength(12);
  });

  it('keep-alives forever → total timeout, in the phase it was in', async () => {
    const pings = Array.from({ length: 20 }, () => ({ delayMs: 50, bytes: ': ping\n\n' }));
    const server = await serve(scripted([{ delayMs: 0, bytes: role }, ...pings]));
    const r = await sendOnce({ baseUrl: server.url }, { totalMs: 300 });
    expect(r.outcome).toMatchObject({ kind: 'timeout', phase: 'first-token', message: expect.stringContaining('total timeout') });
    expect((r.endNs as number) - r.sendNs).toBeLessThan(900e6);
  });

  // The socket dies before the chunked body's terminating chunk: the HTTP message
  // itself is incomplete, so undici reports a socket error (UND_ERR_SOCKET) and the
  // record says connection-error. `truncated` is kept for a response that ended
  // cleanly at the HTTP level but without [DONE] or a finish reason.
  it('socket destroyed mid-stream → connection-error UND_ERR_SOCKET in phase stream', async () => {
    const server = await serve(
      scripted(
        [
          { delayMs: 0, bytes: role },
          { delayMs: 20, bytes: token },
          { delayMs: 20, bytes: token },
        ],
        { ending: 'destroy' },
      ),
    );
    const r = await sendOnce({ baseUrl: server.url });
    expect(r.outcome).toMatchObject({ kind: 'connection-error', code: 'UND_ERR_SOCKET', phase: 'stream' });
    expect(r.chunkNs).toHaveLength(2);
  });
});

describe('cancellation', () => {
  it('an abort mid-stream → aborted, promptly', async () => {
    const server = await serve(
      scripted(
        [
          { delayMs: 0, bytes: role },
          { delayMs: 0, bytes: token },
        ],
        { ending: 'hang' },
      ),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const r = await sendOnce({ baseUrl: server.url }, {}, controller.signal);
    expect(r.outcome).toEqual({ kind: 'aborted' });
    expect(r.chunkNs).toHaveLength(1);
  });

  it('an already aborted signal → aborted without sending', async () => {
    const server = await serve(scripted([]));
    const r = await sendOnce({ baseUrl: server.url }, {}, AbortSignal.abort());
    expect(r.outcome).toEqual({ kind: 'aborted' });
    expect(server.requests).toHaveLength(0);
  });

  it('close() with a request in flight → aborted', async () => {
    const server = await serve(scripted([{ delayMs: 0, bytes: role }], { ending: 'hang' }));
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
    const pending = client.send(spec, meta);
    setTimeout(() => void client.close(), 100);
    expect((await pending).outcome).toEqual({ kind: 'aborted' });
  });
});

describe('the API key', () => {
  const key = 'sk-secret-123';
  for (const status of [401, 500]) {
    it(`never appears in the record of a ${status}, even when the server echoes it`, async () => {
      const server = await serve(reply(status, JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } })));
      const r = await sendOnce({ baseUrl: server.url, apiKey: key });
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
      expect(r.outcome).toMatchObject({ kind: 'http-error', status, message: 'Incorrect API key provided: [redacted]' });
      expect(JSON.stringify(r)).not.toContain(key);
    });
  }
});

describe('failure classification by code', () => {
  const limits = { connectMs: 10_000, headersMs: 120_000, idleMs: 60_000 };
  const err = (code: string) => Object.assign(new Error('boom'), { code });

  it('maps undici timeout codes to their own phases', () => {
    expect(failureOutcome(err('UND_ERR_CONNECT_TIMEOUT'), 'connect', limits)).toMatchObject({ kind: 'timeout', phase: 'connect' });
    expect(failureOutcome(err('UND_ERR_HEADERS_TIMEOUT'), 'headers', limits)).toMatchObject({ kind: 'timeout', phase: 'headers' });
    expect(failureOutcome(err('UND_ERR_BODY_TIMEOUT'), 'first-token', limits)).toMatchObject({ kind: 'timeout', phase: 'first-token' });
    expect(failureOutcome(err('UND_ERR_BODY_TIMEOUT'), 'stream', limits)).toMatchObject({ kind: 'timeout', phase: 'stream' });
  });

  it('keeps the system code of socket errors, also inside AggregateError and cause', () => {
    expect(failureOutcome(err('ECONNRESET'), 'stream', limits)).toMatchObject({ kind: 'connection-error', code: 'ECONNRESET', phase: 'stream' });
    const aggregate = new AggregateError([err('ECONNREFUSED')], 'all failed');
    expect(failureOutcome(aggregate, 'connect', limits)).toMatchObject({ code: 'ECONNREFUSED' });
    expect(failureOutcome(new Error('x', { cause: err('EPIPE') }), 'headers', limits)).toMatchObject({ code: 'EPIPE' });
  });

  it('turns a body that cannot be serialised into a record, not a rejection', async () => {
    const client = createStreamingClient({ baseUrl: 'http://127.0.0.1:9' }, { connections: 1 });
    const r = await client.send({ ...spec, extraBody: { n: 1n } }, meta);
    await client.close();
    expect(r.outcome).toMatchObject({ kind: 'not-sent', code: 'ERR_REQUEST_BODY' });
  });

  it("refuses a body past the request limit before sending it (a conversation that grew on a server's long answers)", async () => {
    const client = createStreamingClient({ baseUrl: 'http://127.0.0.1:9' }, { connections: 1 });
    const answer = 'word '.repeat(500_000);
    const r = await client.send(
      {
        ...spec,
        history: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: answer },
          { role: 'user', content: 'again' },
          { role: 'assistant', content: answer },
        ],
      },
      meta,
    );
    await client.close();
    // Our own limit, with its own kind and code: never the server's connection-error.
    expect(r.outcome).toEqual({
      kind: 'not-sent',
      code: 'ERR_REQUEST_BODY_LIMIT',
      message: expect.stringMatching(/^our request-body limit: the body \d+ is above the limit of 4194304 bytes in one request body we send; never sent$/),
    });
    expect(r.headersNs).toBeNull();
    expect(r.writtenNs).toBeUndefined();
    const level = summarizeLevel({
      concurrency: 1,
      records: [r],
      targetOutputTokens: 8,
      forceLength: false,
      loopDelayMs: null,
      clientCpuPct: null,
      clientBudgetMs: 10,
      gpu: { available: false, source: 'not available', reason: 'test' },
    });
    expect(level.failures).toEqual({ 'not-sent': 1 });
    expect(level.failureExamples[0]).toMatch(/^not sent \(refused by us, not a server failure\): our request-body limit/);
    expect(rawRecordSchema.parse(JSON.parse(JSON.stringify(r))).outcome).toMatchObject({ kind: 'not-sent', code: 'ERR_REQUEST_BODY_LIMIT' });
  });
});
