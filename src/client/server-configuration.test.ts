// The configuration each engine reports of itself, read from detection's
// bounded answers: llama.cpp's recorded /props, SGLang's /get_server_info,
// TGI's /info, vLLM's model card and the simulator's /sim/config; and hostile
// answers (not JSON, past the probe limit, nested or unprintable values, a
// silent or absent server), each a clean "not reported" or a dropped value.
import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { configurationFrom, engineConfiguration, simConfiguration } from './server-configuration.js';

type Route = { status?: number; body: unknown; headers?: Record<string, string> } | 'hang';
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function fake(routes: Record<string, Route>): Promise<string> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ''];
    if (route === 'hang') return;
    const r = route ?? { status: 404, body: { detail: 'Not Found' } };
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
    res.end(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const llama = JSON.parse(readFileSync(new URL('./fixtures/engines/llamacpp/identity.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const llamaRoutes = (props: unknown): Record<string, Route> => ({
  '/v1/models': { body: llama['/v1/models'], headers: { server: 'llama.cpp' } },
  '/props': { body: props, headers: { server: 'llama.cpp' } },
});
const models = (owned_by: string, extra: Record<string, unknown> = {}) => ({
  body: { object: 'list', data: [{ id: 'm', object: 'model', owned_by, ...extra }] },
});

describe('each engine reports its configuration on its own route', () => {
  it("llama.cpp's recorded /props: its slots and per-slot context", async () => {
    const url = await fake(llamaRoutes(llama['/props']));
    expect(await engineConfiguration({ baseUrl: `${url}/v1` }, 'stories260K')).toEqual({
      engine: 'llamacpp',
      source: 'GET /props',
      settings: [
        { name: 'total_slots', value: 8 },
        { name: 'default_generation_settings.n_ctx', value: 1024 },
      ],
      note: null,
    });
  });

  it("SGLang's /get_server_info: the settings goodput reads, nothing else of its server arguments", async () => {
    const info = {
      version: '0.5.4',
      max_running_requests: 48,
      chunked_prefill_size: 8192,
      tp_size: 2,
      schedule_policy: 'lpm',
      model_path: '/models/secret',
      api_key: 'sk-x',
    };
    const url = await fake({ '/v1/models': models('sglang'), '/get_server_info': { body: info } });
    expect(await engineConfiguration({ baseUrl: url }, 'm')).toEqual({
      engine: 'sglang',
      source: 'GET /get_server_info',
      settings: [
        { name: 'max_running_requests', value: 48 },
        { name: 'chunked_prefill_size', value: 8192 },
        { name: 'tp_size', value: 2 },
        { name: 'schedule_policy', value: 'lpm' },
      ],
      note: null,
    });
  });

  it("TGI's /info and vLLM's model card", async () => {
    const tgi = await fake({
      '/v1/models': models('meta-llama/Llama-3.1-8B'),
      '/info': { body: { model_id: 'x', router: 'text-generation-router', version: '3.3.4', max_concurrent_requests: 32, max_total_tokens: 8192 } },
    });
    expect((await engineConfiguration({ baseUrl: tgi }, 'x')).settings).toEqual([
      { name: 'max_concurrent_requests', value: 32 },
      { name: 'max_total_tokens', value: 8192 },
    ]);
    const vllm = await fake({ '/v1/models': models('vllm', { max_model_len: 4096 }), '/version': { body: { version: '0.11.2' } } });
    expect(await engineConfiguration({ baseUrl: vllm }, 'm')).toEqual({
      engine: 'vllm',
      source: 'GET /v1/models',
      settings: [{ name: 'max_model_len', value: 4096 }],
      note: null,
    });
  });

  it("the simulator's /sim/config: the profile its flags set", () => {
    const c = simConfiguration({
      simulator: 'goodput-sim',
      profile: { maxBatch: 1, maxModelLen: 4096, prefixCaching: false, stepTiming: 'batched', gpu: { name: 'x' } },
    });
    expect(c.settings).toEqual([
      { name: 'profile.maxBatch', value: 1 },
      { name: 'profile.maxModelLen', value: 4096 },
      { name: 'profile.prefixCaching', value: false },
      { name: 'profile.stepTiming', value: 'batched' },
    ]);
  });

  it('an engine without a configuration route, and a server that is not there, are "not reported" with the reason', async () => {
    const ollama = await fake({ '/v1/models': models('library'), '/api/version': { body: { version: '0.12.3' } } });
    expect(await engineConfiguration({ baseUrl: ollama }, 'm')).toEqual({
      engine: 'ollama',
      source: null,
      settings: [],
      note: 'not reported: Ollama has no route goodput reads a configuration from',
    });
    const gone = await fake({});
    await new Promise((r) => servers.pop()?.close(r));
    expect((await engineConfiguration({ baseUrl: gone }, 'm')).source).toBeNull();
  });
});

describe('a hostile configuration answer is a clean "not reported" or a dropped value', () => {
  it('an answer that is not JSON, or past the probe limit, leaves the configuration not reported', async () => {
    const notJson = await fake(llamaRoutes('<html>oops</html>'));
    expect(await engineConfiguration({ baseUrl: notJson }, 'm')).toMatchObject({
      engine: 'llamacpp',
      source: null,
      settings: [],
      note: expect.stringMatching(/^not reported/),
    });
    const huge = await fake(llamaRoutes({ total_slots: 4, pad: 'x'.repeat(LIMITS.probeResponseBytes.max) }));
    expect(await engineConfiguration({ baseUrl: huge }, 'm')).toMatchObject({ source: null, settings: [] });
  });

  it('nested, non-finite, unprintable and overlong values are dropped or cleaned, never kept as given', () => {
    const c = configurationFrom('sglang', '/get_server_info', {
      max_running_requests: { $gt: 1 },
      chunked_prefill_size: [8192],
      max_prefill_tokens: Number.POSITIVE_INFINITY,
      schedule_policy: '\u001b[31mfcfs\u0007',
      kv_cache_dtype: 'a'.repeat(500),
      quantization: '   ',
      tp_size: null,
    });
    expect(c.settings).toEqual([
      { name: 'schedule_policy', value: '[31mfcfs' },
      { name: 'kv_cache_dtype', value: 'a'.repeat(120) },
    ]);
    expect(configurationFrom('sglang', '/get_server_info', { __proto__: { max_running_requests: 1 } } as Record<string, unknown>).source).toBeNull();
  });

  it('a route that never answers is not reported once the probe times out', async () => {
    const url = await fake({ '/v1/models': { body: llama['/v1/models'], headers: { server: 'llama.cpp' } }, '/props': 'hang' });
    expect(await engineConfiguration({ baseUrl: url }, 'm')).toMatchObject({ engine: 'llamacpp', source: null, settings: [] });
  }, 10_000);
});
