// Traps 14-16: four error-body shapes, classified by HTTP status only, with what the status means on that engine.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { dialects } from './dialects/registry.js';
import type { DialectKind } from './dialects/types.js';
import { createStreamingClient } from './streaming-client.js';
import type { RequestMeta, RequestSpec } from './types.js';

const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function outcome(kind: DialectKind, status: number, body: string) {
  const server = await startServer((_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  servers.push(server);
  const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: dialects[kind] });
  const r = await client.send(spec, meta);
  await client.close();
  return r.outcome;
}

describe('HTTP errors per engine', () => {
  it('reads each shape and says what the status means on that engine', async () => {
    expect(await outcome('tgi', 429, '{"error":"Model is overloaded","error_type":"overloaded"}')).toEqual({
      kind: 'http-error',
      status: 429,
      message: 'overloaded (TGI rejects requests above max_concurrent_requests, default 128): Model is overloaded (not retried: the answer has no Retry-After)',
    });
    expect(
      await outcome('tgi', 422, '{"error":"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096","error_type":"validation"}'),
    ).toMatchObject({
      status: 422,
      message: expect.stringMatching(/^validation error \(TGI answers 422 for an input longer than max_input_tokens\): Input validation/),
    });
    expect(
      await outcome(
        'ollama',
        503,
        '{"error":{"message":"server busy, please try again.  maximum pending requests exceeded","type":"api_error","param":null,"code":null}}',
      ),
    ).toMatchObject({
      status: 503,
      message: expect.stringMatching(/^server busy \(Ollama rejects requests beyond OLLAMA_MAX_QUEUE, default 512\): server busy/),
    });
    expect(await outcome('ollama-native', 404, '{"error":"model \\"x\\" not found, try pulling it first"}')).toEqual({
      kind: 'http-error',
      status: 404,
      message: 'model "x" not found, try pulling it first',
    });
    expect(
      await outcome('sglang', 400, '{"object":"error","message":"The input is longer than the context","type":"BadRequestError","param":null,"code":400}'),
    ).toMatchObject({ status: 400, message: 'The input is longer than the context' });
    expect(
      await outcome(
        'llamacpp',
        400,
        '{"error":{"code":400,"message":"request (1681 tokens) exceeds the available context size (1024 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":1681,"n_ctx":1024}}',
      ),
    ).toMatchObject({ status: 400, message: expect.stringMatching(/^request \(1681 tokens\) exceeds/) });
  });

  it('classifies by status, never by the message: the same body is a different failure under another status', async () => {
    const body = '{"error":"Model is overloaded","error_type":"overloaded"}';
    expect(await outcome('tgi', 500, body)).toEqual({ kind: 'http-error', status: 500, message: 'Model is overloaded' });
    expect(await outcome('vllm', 429, body)).toEqual({
      kind: 'http-error',
      status: 429,
      message: 'Model is overloaded (not retried: the answer has no Retry-After)',
    });
  });
});
