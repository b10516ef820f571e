/**
 * Provider targets through a whole sweep on 127.0.0.1: extra headers and the extra body reach the server on
 * every request (a loopback server records them) while a header named like a key is `[redacted]` in the
 * result and nowhere written in full; an Azure deployment's path, api-version and api-key header; the
 * Messages API on the simulator, output and thinking counted from its usage events.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { startServer } from '../test-support/scripted-server.js';
import { SweepError } from './errors.js';
import { runSweep } from './run-kinds.js';
import type { SweepEvent } from './sweep-events.js';
import type { RequestRecord } from '../core/index.js';

const FAST = { prefillBaseMs: 2, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 };
const sim = useSimulators({ ...FAST, port: 0 });
const base = {
  outputTokens: 8,
  promptTokens: 16,
  requestsPerLevel: 3 as const,
  warmup: 0,
  levels: [1],
  serverMetrics: false,
  tokenizer: { kind: 'approximate' as const },
};
const SECRET = 'sk-gw-7f3a9c1e5b2d4f6a8c0e';

/** A loopback OpenAI-compatible server: /v1/models and a short chat stream, every request kept. */
function chatServer(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/v1/models') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end('{"object":"list","data":[{"id":"m","object":"model"}]}');
  }
  if (req.method !== 'POST') {
    res.writeHead(404);
    return void res.end();
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const chunk = (content: string) => `data: {"choices":[{"index":0,"delta":{"content":"${content}"}}]}\n\n`;
  res.end(
    `${chunk(' a')}${chunk(' b')}data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n\ndata: {"choices":[],"usage":{"prompt_tokens":16,"completion_tokens":2}}\n\ndata: [DONE]\n\n`,
  );
}

describe('--header and --extra-body', () => {
  it('reach the server on every request; a header named like a key is redacted in the result', async () => {
    const server = await startServer(chatServer);
    try {
      const result = await runSweep({
        ...base,
        url: server.url,
        model: 'm',
        engine: 'generic',
        headers: [
          { name: 'X-Tenant', value: 'a' },
          { name: 'X-Gateway-Key', value: SECRET },
        ],
        extraBody: { priority: 1 },
      });
      const posts = server.requests.filter((r) => r.url === '/v1/chat/completions');
      expect(posts).toHaveLength(3);
      for (const p of posts) {
        expect(p.headers['x-tenant']).toBe('a');
        expect(p.headers['x-gateway-key']).toBe(SECRET);
        expect(JSON.parse(p.body)).toMatchObject({ priority: 1, stream: true, model: 'm' });
      }
      // Every GET before the level (preflight, detection) carries them too: a gateway routes those as well.
      expect(server.requests.find((r) => r.url === '/v1/models')?.headers['x-tenant']).toBe('a');
      expect(result.run).toMatchObject({
        headers: [
          { name: 'X-Tenant', value: 'a' },
          { name: 'X-Gateway-Key', value: '[redacted]' },
        ],
        extraBody: { priority: 1 },
      });
      expect(JSON.stringify(result)).not.toContain(SECRET);
    } finally {
      await server.close();
    }
  });

  it('a header goodput writes itself and an extra body that rewrites the workload are refused before anything is sent', async () => {
    const server = await startServer(chatServer);
    try {
      await expect(runSweep({ ...base, url: server.url, headers: [{ name: 'Content-Length', value: '5' }] })).rejects.toThrow(
        'headers: header Content-Length is set by goodput or by the connection itself, never by --header',
      );
      await expect(runSweep({ ...base, url: server.url, extraBody: { messages: [] } })).rejects.toThrow(
        'extraBody: extraBody sets messages, which goodput writes itself (the workload and the stream are what is measured)',
      );
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('Azure OpenAI', () => {
  it("a deployment's path with its api-version and the api-key header; the key is never in the result", async () => {
    const s = await sim();
    const server = await startServer(async (req, res, body) => {
      // A recording proxy in front of the simulator: what Azure would receive.
      const r = await fetch(`${s.url}${req.url ?? ''}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': 'application/json' },
        ...(req.method === 'POST' ? { body } : {}),
      });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await r.arrayBuffer()));
    });
    try {
      const completions = await runSweep({ ...base, url: server.url, endpoint: 'completions', azure: { deployment: 'goodput-sim-1', apiVersion: 'v1' } });
      expect(completions.levels[0]).toMatchObject({ succeeded: 3, failed: 0 });
      expect(server.requests.filter((r) => r.url === '/openai/deployments/goodput-sim-1/completions?api-version=v1')).toHaveLength(3);
      const result = await runSweep({ ...base, url: server.url, apiKey: 'azure-key-0123', azure: { deployment: 'goodput-sim-1', apiVersion: '2024-10-21' } });
      expect(result.levels[0]).toMatchObject({ succeeded: 3, failed: 0 });
      const posts = server.requests.filter((r) => r.url.startsWith('/openai/deployments/goodput-sim-1/chat/'));
      expect(posts.map((r) => r.url)).toEqual(Array(3).fill('/openai/deployments/goodput-sim-1/chat/completions?api-version=2024-10-21'));
      expect(posts[0]?.headers['api-key']).toBe('azure-key-0123');
      expect(posts[0]?.headers.authorization).toBeUndefined();
      expect(result.run).toMatchObject({ azure: { deployment: 'goodput-sim-1', apiVersion: '2024-10-21' }, engine: { name: 'openai' } });
      expect(JSON.stringify(result)).not.toContain('azure-key-0123');
    } finally {
      await server.close();
    }
  });

  it('the simulator answers a wrong deployment 404 and a missing api-version 400, as Azure does', async () => {
    const s = await sim();
    const post = (path: string) => fetch(`${s.url}${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    const missing = await post('/openai/deployments/goodput-sim-1/chat/completions');
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('Missing required query parameter: api-version');
    const wrong = await post('/openai/deployments/other/chat/completions?api-version=1');
    expect(wrong.status).toBe(404);
    expect(await wrong.text()).toContain('The API deployment other for this resource does not exist');
  });

  it('an Azure deployment with the Messages API is refused naming the field', async () => {
    await expect(runSweep({ ...base, url: 'http://127.0.0.1:9', endpoint: 'messages', azure: { deployment: 'd', apiVersion: 'v' } })).rejects.toThrow(
      'azure: an Azure deployment serves chat and completions here, not messages',
    );
  });
});

describe('--endpoint messages against the simulator', () => {
  it('output and thinking tokens counted from its usage events; the key travels as x-api-key, never in the result', async () => {
    const s = await sim({ reasoningTokens: 4, naturalOutputTokens: { min: 4, max: 4 } });
    const records: RequestRecord[] = [];
    const onEvent = (e: SweepEvent) => {
      if (e.kind === 'level-end') records.push(...(e.records as RequestRecord[]));
    };
    // Thinking's budget is at least 1024 tokens below max_tokens: the cap is above it, the answers short.
    const result = await runSweep({ ...base, url: s.url, endpoint: 'messages', thinking: true, outputTokens: 1100, apiKey: 'sk-ant-0123' }, { onEvent });
    expect(result.run).toMatchObject({ endpoint: 'messages', anthropicVersion: '2023-06-01' });
    expect(result.levels[0]).toMatchObject({ succeeded: 3, failed: 0 });
    expect(records).toHaveLength(3);
    // Output counts thinking and answer together, as Anthropic's output_tokens does: 4 + 4.
    for (const r of records) expect(r).toMatchObject({ outputTokens: 8, outputTokenSource: 'usage', reasoningChunks: 4, promptTokens: expect.any(Number) });
    expect(result.warnings.map((w) => w.code)).toContain('cannot-force-length');
    expect(JSON.stringify(result)).not.toContain('sk-ant-0123');
  });

  it("a session's turns carry the conversation so far: each turn's prompt holds the turns before it", async () => {
    const s = await sim({ naturalOutputTokens: { min: 4, max: 4 } });
    const records: RequestRecord[] = [];
    const onEvent = (e: SweepEvent) => {
      if (e.kind === 'level-end') records.push(...(e.records as RequestRecord[]));
    };
    const turns = [
      { p: 6, o: 4 },
      { p: 6, o: 4 },
      { p: 6, o: 4 },
    ];
    await runSweep(
      { ...base, url: s.url, endpoint: 'messages', forceLength: false, prompts: { kind: 'sessions', sessions: [{ turns, thinkMs: [0, 0] }] } },
      { onEvent },
    );
    const prompts = records.sort((a, b) => (a.session?.turn ?? 0) - (b.session?.turn ?? 0)).map((r) => r.promptTokens ?? 0);
    expect(prompts).toHaveLength(3);
    // Each turn resends the earlier messages and answers: the prompt grows by a turn and an answer.
    expect(prompts[1]).toBeGreaterThan((prompts[0] ?? 0) + 4);
    expect(prompts[2]).toBeGreaterThan((prompts[1] ?? 0) + 4);
  });

  it('thinking with a cap too small for its budget is refused before anything is sent', async () => {
    await expect(runSweep({ ...base, url: 'http://127.0.0.1:9', endpoint: 'messages', thinking: true, outputTokens: 1024 })).rejects.toThrow(
      'outputTokens: extended thinking on the Messages API takes a budget of at least 1024 tokens below max_tokens: output tokens must be above 1024 with thinking on',
    );
  });

  it('an engine without the Messages API is refused before anything is sent', async () => {
    const s = await sim();
    await expect(runSweep({ ...base, url: s.url, endpoint: 'messages', engine: 'vllm' })).rejects.toSatisfy(
      (e: unknown) => e instanceof SweepError && /endpoint messages: vLLM has no Messages API \(\/v1\/messages\)/.test(e.message),
    );
  });
});
