// llama-server's streamed /v1/responses, recorded from a real build (fixtures/llama-server/50-responses-stream.http)
// and replayed on loopback through the llama.cpp dialect: the body carries the chat keys llama-server reads after
// converting the request, and TTFT is the first output_text.delta, not the four events that open the stream.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep, startServer, type TestServer } from '../test-support/scripted-server.js';
import { llamacpp } from './dialects/llamacpp.js';
import { createStreamingClient } from './streaming-client.js';
import { responseIdOf } from './stream-handler.js';
import type { RequestSpec } from './types.js';

const text = readFileSync(new URL('./fixtures/llama-server/50-responses-stream.http', import.meta.url), 'utf8');
const recordedRequest = JSON.parse(/^request body: (.*)$/m.exec(text)?.[1] ?? 'null') as Record<string, unknown>;
const head = text.indexOf('HTTP/1.1 ');
const events = text.slice(text.indexOf('\r\n\r\n', head) + 4).split(/(?<=\n\n)/);
const firstDelta = events.findIndex((e) => e.startsWith('event: response.output_text.delta'));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("llama-server's /v1/responses stream (recorded)", () => {
  it('opens with created, in_progress and two added events, then one delta per token; usage and the id from response.completed', () => {
    expect(events.slice(0, firstDelta).map((e) => /^event: (\S+)/.exec(e)?.[1])).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
    ]);
    expect(events.filter((e) => e.startsWith('event: response.output_text.delta'))).toHaveLength(12);
    expect(events.at(-1)).toMatch(/^event: response\.completed\n/);
    expect(text).not.toContain('[DONE]');
  });

  it('is timed from the first text delta, counted from usage, and asked with the chat keys llama-server reads', async () => {
    // An injected clock that jumps before each delta is written: the opening events arrive at 1 µs, the first delta at or after 1 ms.
    let now = 1_000;
    const server = await startServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(events.slice(0, firstDelta).join(''));
      for (const [i, e] of events.slice(firstDelta).entries()) {
        await sleep(i === 0 ? 20 : 1);
        now = 1_000_000 * (i + 1);
        res.write(e);
      }
      res.end();
    });
    servers.push(server);
    const client = createStreamingClient({ baseUrl: server.url }, { connections: 1, dialect: llamacpp, clock: () => now });
    const spec: RequestSpec = {
      endpoint: 'responses',
      model: 'stories260K',
      prompt: 'Tell me a story.',
      maxTokens: 12,
      forceLength: true,
      thinking: false,
      temperature: 0.8,
      seed: 42,
    };
    const r = await client.send(spec, { seq: 0, concurrency: 1, warmup: false, targetSendNs: 0 });
    await client.close();
    expect(r).toMatchObject({
      outcome: { kind: 'ok' },
      outputTokens: 12,
      outputTokenSource: 'usage',
      promptTokens: 50,
      cachedPromptTokens: 0,
      finishReason: 'stop',
    });
    expect(r.chunkNs).toHaveLength(12);
    expect(r.firstTokenNs).toBe(r.chunkNs[0]);
    expect(r.firstTokenNs as number).toBeGreaterThanOrEqual(1_000_000);
    expect(responseIdOf(r)).toBe('resp_bJflf9nI3kUXDpf51UkOMrwfRMdPt0xF');
    expect(server.requests[0]?.url).toBe('/v1/responses');
    const sent = JSON.parse(server.requests[0]?.body ?? '{}') as Record<string, unknown>;
    // What the recording asked, and what our body carries besides (neutral sampler, thinking off); no store.
    expect(sent).toMatchObject(recordedRequest);
    expect(sent).toMatchObject({ top_k: 0, min_p: 0, chat_template_kwargs: { enable_thinking: false } });
    expect(sent).not.toHaveProperty('store');
  });
});
