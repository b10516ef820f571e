// How 200 streams end (DONE, finish reason, clean close, malformed, not SSE),
// and where the instants land when the server paces its writes.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestRecord } from '../core/index.js';
import { createStreamingClient } from './streaming-client.js';
import { scripted, startServer, type Step, type TestServer } from '../test-support/scripted-server.js';
import type { RequestMeta, RequestSpec } from './types.js';

const meta: RequestMeta = { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 };
const spec: RequestSpec = { endpoint: 'chat', model: 'm', prompt: 'hi', maxTokens: 8, forceLength: false, thinking: false };
const events = readFileSync(new URL('./fixtures/llama-server/11-chat-stream-no-usage.sse', import.meta.url), 'utf8').split(/(?<=\n\n)/);
const data = (o: unknown): string => `data: ${JSON.stringify(o)}\n\n`;
const role = data({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
const token = (t: string): string => data({ choices: [{ index: 0, delta: { content: t }, finish_reason: null }] });
const finish = data({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function record(steps: Step[], opts: Parameters<typeof scripted>[1] = {}): Promise<RequestRecord> {
  const server = await startServer(scripted(steps, opts));
  servers.push(server);
  const client = createStreamingClient({ baseUrl: server.url }, { connections: 1 });
  const r = await client.send(spec, meta);
  await client.close();
  return r;
}
const now = (text: string): Step => ({ delayMs: 0, bytes: text });

describe('stream endings', () => {
  it('has 8 events in the 11 transcript: role, 6 tokens, finish, [DONE]', () => {
    expect(events).toHaveLength(9);
  });

  it('is ok with a finish reason but no [DONE], ending at the close', async () => {
    const r = await record(events.slice(0, 8).map(now));
    expect(r).toMatchObject({ outcome: { kind: 'ok' }, finishReason: 'length', outputTokens: 6 });
  });

  it('is truncated when the stream closes cleanly without [DONE] or a finish reason', async () => {
    const r = await record(events.slice(0, 4).map(now));
    expect(r.outcome).toEqual({ kind: 'truncated', message: 'the stream closed without [DONE] or a finish_reason after 4 data events' });
    expect(r.chunkNs).toHaveLength(3);
  });

  it('is truncated when [DONE] comes with no text and no finish reason', async () => {
    const r = await record([now(role), now('data: [DONE]\n\n')]);
    expect(r.outcome.kind).toBe('truncated');
    expect(r.firstTokenNs).toBeNull();
  });

  it('reads a final event that lacks its blank line at the close', async () => {
    const r = await record([now(role), now(token('a')), now('data: [DONE]')]);
    expect(r).toMatchObject({ outcome: { kind: 'ok' }, outputTokens: 1 });
    expect(r.endNs).toBeGreaterThanOrEqual(r.chunkNs[0] as number);
  });

  it('reports a malformed event as a stream error, even when [DONE] follows', async () => {
    const r = await record([now(role), now(token('a')), now('data: {"choices": [\n\n'), now(finish), now('data: [DONE]\n\n')]);
    expect(r.outcome).toEqual({ kind: 'stream-error', message: 'malformed SSE event: {"choices": [' });
    expect(r.finishReason).toBe('stop');
  });

  it('says so when a 200 response is not an event stream', async () => {
    const r = await record([now('{"choices":[{"message":{"content":"hi"}}]}')], { contentType: 'application/json' });
    expect(r.outcome).toEqual({ kind: 'truncated', message: expect.stringContaining('Content-Type: application/json') });
  });

  it('does not start TTFT at a role-only chunk, and reasoning starts TTFT but not TTFA', async () => {
    const reasoning = data({ choices: [{ index: 0, delta: { reasoning_content: 'hmm' }, finish_reason: null }] });
    const r = await record([now(role), { delayMs: 80, bytes: reasoning }, { delayMs: 80, bytes: token('A') }, now(finish), now('data: [DONE]\n\n')]);
    const headers = r.headersNs as number;
    const first = r.firstTokenNs as number;
    expect(first - headers).toBeGreaterThanOrEqual(60e6);
    expect((r.firstAnswerNs as number) - first).toBeGreaterThanOrEqual(60e6);
    expect(r).toMatchObject({ reasoningChunks: 1, chunkTokens: [1, 1], outcome: { kind: 'ok' } });
  });

  it('ends at [DONE], not at a later close', async () => {
    const r = await record([now(role), now(token('a')), now(finish), now('data: [DONE]\n\n'), { delayMs: 300, bytes: ': late\n\n' }]);
    expect(r.outcome.kind).toBe('ok');
    expect((r.endNs as number) - (r.chunkNs[0] as number)).toBeLessThan(200e6);
  });

  it('stamps instants with the injected clock', async () => {
    const server = await startServer(scripted([now(role), now(token('a')), now(finish)]));
    servers.push(server);
    let ticks = 0;
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, clock: () => ++ticks * 1000 });
    const r = await client.send(spec, meta);
    await client.close();
    expect(r.sendNs).toBe(1000);
    expect(Number.isInteger((r.endNs as number) / 1000)).toBe(true);
    expect(r.endNs as number).toBeGreaterThan(r.chunkNs[0] as number);
  });
});
