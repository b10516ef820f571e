// Detection from cheap GETs only (trap 23: never a generation route or /health_generate), against small fake
// servers shaped like each engine (llama.cpp from a recorded server) and against the simulator in every dialect.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SIM_DIALECTS, SIM_DIALECT_KINDS, startSimulator, type SimServer } from '../../sim/index.js';
import { startServer, type TestServer } from '../../test-support/scripted-server.js';
import { detectEngine, probePaths } from './detect.js';

type Routes = Record<string, { status?: number; body: unknown; headers?: Record<string, string> } | 'hang'>;
let servers: Array<TestServer | SimServer> = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function fake(routes: Routes): Promise<TestServer> {
  const server = await startServer((req: IncomingMessage, res: ServerResponse) => {
    const route = routes[(req.url ?? '').split('?')[0] ?? ''];
    if (route === 'hang') return;
    const r = route ?? { status: 404, body: { detail: 'Not Found' } };
    res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
    res.end(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
  });
  servers.push(server);
  return server;
}
const models = (owned_by: string) => ({ body: { object: 'list', data: [{ id: 'm', object: 'model', owned_by }] } });
const llama = JSON.parse(readFileSync(new URL('../fixtures/engines/llamacpp/identity.json', import.meta.url), 'utf8')) as Record<string, unknown>;

const cases: Array<[string, Routes, string, string | null]> = [
  ['vLLM', { '/v1/models': models('vllm'), '/version': { body: { version: '0.11.2' } } }, 'vllm', '0.11.2'],
  [
    'SGLang',
    { '/v1/models': models('sglang'), '/get_server_info': { body: { version: '0.5.4', tp_size: 2 } }, '/version': { body: { version: '0.5.4' } } },
    'sglang',
    '0.5.4',
  ],
  [
    'TGI',
    {
      '/v1/models': models('meta-llama/Llama-3.1-8B'),
      '/info': { body: { model_id: 'meta-llama/Llama-3.1-8B', router: 'text-generation-router', version: '3.3.4', max_total_tokens: 8192 } },
    },
    'tgi',
    '3.3.4',
  ],
  [
    'llama.cpp (recorded)',
    { '/v1/models': { body: llama['/v1/models'], headers: { server: 'llama.cpp' } }, '/props': { body: llama['/props'], headers: { server: 'llama.cpp' } } },
    'llamacpp',
    'b9928-81ff7ab',
  ],
  ['llama.cpp without /props, by its Server header', { '/v1/models': { ...models('x'), headers: { server: 'llama.cpp' } } }, 'llamacpp', null],
  ['Ollama', { '/v1/models': models('library'), '/api/version': { body: { version: '0.12.3' } } }, 'ollama', '0.12.3'],
  ['TensorRT-LLM', { '/v1/models': models('tensorrt_llm'), '/version': { body: { version: '1.0.0' } } }, 'trtllm', '1.0.0'],
  ['LMDeploy', { '/v1/models': models('lmdeploy') }, 'lmdeploy', null],
  ['OpenAI', { '/v1/models': { ...models('system'), headers: { 'openai-version': '2020-10-01' } } }, 'openai', null],
  ['another server', { '/v1/models': models('acme'), '/version': { body: { version: 'acme 2' } } }, 'generic', 'acme 2'],
];

describe('detectEngine against fake servers', () => {
  for (const [what, routes, kind, version] of cases) {
    it(`recognises ${what}`, async () => {
      const server = await fake(routes);
      const found = await detectEngine({ baseUrl: `${server.url}/v1`, apiKey: 'sk-probe' });
      expect(found.dialect.kind).toBe(kind);
      expect(found.version).toBe(version);
      expect(found.evidence.length).toBeGreaterThan(0);
      // GETs of the probe paths only, each once, with the key.
      expect(server.requests.map((r) => r.url).sort()).toEqual(probePaths().sort());
      expect(server.requests.every((r) => r.headers.authorization === 'Bearer sk-probe')).toBe(true);
    });
  }

  it('never asks a generation route or /health_generate', () => {
    const paths = probePaths();
    expect(paths).toContain('/v1/models');
    expect(paths.some((p) => /completions|generate|chat/.test(p))).toBe(false);
  });

  it('does not wait past its timeout for a probe that never answers', async () => {
    const server = await fake({ '/v1/models': models('vllm'), '/version': { body: { version: '0.9' } }, '/info': 'hang', '/props': 'hang' });
    const t0 = performance.now();
    const found = await detectEngine({ baseUrl: server.url }, { timeoutMs: 300 });
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(found).toMatchObject({ version: '0.9' });
    expect(found.dialect.kind).toBe('vllm');
  });

  it('falls back to generic when nothing answers', async () => {
    const server = await fake({});
    expect((await detectEngine({ baseUrl: server.url })).dialect.kind).toBe('generic');
  });
});

describe('detectEngine against the simulator in every dialect', () => {
  for (const dialect of SIM_DIALECT_KINDS) {
    it(`--dialect ${dialect}`, async () => {
      const sim = await startSimulator({ dialect });
      servers.push(sim);
      const found = await detectEngine({ baseUrl: sim.url });
      expect(found.dialect.kind).toBe(dialect === 'goodput' ? 'generic' : dialect);
      if (dialect === 'goodput') expect(found.version).toMatch(/^goodput-sim /);
      else expect(found.version).toBe(SIM_DIALECTS[dialect].version);
    });
  }
});
