/** The contract's declarations checked against what a server reports, over 127.0.0.1. */
import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, startServer } from '../test-support/scripted-server.js';
import { contractSchema } from './contract-schema.js';
import { checkServer } from './server-facts.js';

let servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});
/** A server answering JSON by "METHOD /path"; everything else is a 404. */
async function serve(routes: Record<string, unknown>) {
  const s = await startServer((req, res) => {
    const body = routes[`${req.method} ${req.url}`];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    res.end(body === undefined ? '{}' : JSON.stringify(body));
  });
  servers.push(s);
  return s;
}
const contract = (model: Record<string, string>) =>
  contractSchema.parse({
    version: 1,
    server: { url: 'http://127.0.0.1:1' },
    model: { name: 'm', revision: 'abcdef1234567', precision: 'bf16', quantization: 'none', ...model },
    workload: { prompts: { kind: 'synthetic', tokens: 8 }, outputTokens: 8 },
    load: { levels: [1] },
    slo: { ttftMs: { p: 50, max: 100 } },
    hardware: { label: 'x' },
  });

describe('checking declarations against the server', () => {
  it('records the engine version and what the server does not report', async () => {
    const s = await serve({ 'GET /version': { version: '0.9.2' } });
    const r = await checkServer(contract({}), `${s.url}/v1`, undefined);
    expect(r.engineVersion).toBe('0.9.2');
    expect(r.engineVersionSource).toBe('GET /version version');
    expect(r.checks.map((c) => c.status)).toEqual(['not-reported', 'not-reported', 'not-reported']);
  });
  it('matches precision and revision spelled differently (torch.bfloat16 = bf16; a short sha)', async () => {
    const s = await serve({ 'GET /info': { version: '3.0.1', model_dtype: 'torch.bfloat16', model_sha: 'abcdef1234567890' } });
    const r = await checkServer(contract({}), s.url, undefined);
    expect(r.engineVersion).toBe('3.0.1');
    expect(r.checks).toContainEqual({
      field: 'model.precision',
      declared: 'bf16',
      reported: 'torch.bfloat16',
      source: 'GET /info model_dtype',
      status: 'match',
    });
    expect(r.checks.find((c) => c.field === 'model.revision')?.status).toBe('match');
  });
  it('refuses a contract the server contradicts, naming the field, both values and the source', async () => {
    const s = await serve({ 'GET /info': { model_dtype: 'torch.float16' } });
    await expect(checkServer(contract({}), s.url, undefined)).rejects.toThrow(
      'model.precision: the contract declares "bf16" but the server reports "torch.float16" (GET /info model_dtype)',
    );
    const o = await serve({ 'POST /api/show': { details: { quantization_level: 'Q4_K_M' } } });
    await expect(checkServer(contract({ quantization: 'q8_0' }), o.url, undefined)).rejects.toThrow(/model\.quantization: .*"q8_0".*"Q4_K_M"/);
    expect((await checkServer(contract({ quantization: 'q4_k_m' }), o.url, undefined)).checks[2]?.status).toBe('match');
  });
});
