/**
 * Every bad body gets a 400 that names the field; a bad path id too. Run
 * in-process through `app.request()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, apiHarness } from '../test-support/api-harness.js';

let h: ApiHarness;
let serverId: number;
beforeAll(async () => {
  h = await apiHarness();
  serverId = (await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url })).json.id;
});
afterAll(async () => {
  await h.close();
});

const start = (over: Record<string, unknown>) => ({ serverId: 1, levels: [1, 2], ...over });

describe('POST /api/runs: bad bodies', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['not JSON', 'levels=1,2', 'body', /must be JSON/],
    ['not an object', '[1,2]', 'body', /must be a JSON object/],
    ['no serverId', { levels: [1] }, 'serverId', /serverId must be the id of a registered server/],
    ['a serverId that is text', start({ serverId: 'sim' }), 'serverId', /serverId must be the id/],
    ['no levels', { serverId: 1 }, 'levels', /levels must be a list of positive integers/],
    ['levels as text', start({ levels: '1,2' }), 'levels', /levels must be a list/],
    ['no level at all', start({ levels: [] }), 'levels', /give at least one concurrency level/],
    ['a zero level', start({ levels: [1, 0] }), 'levels.1', /positive integer/],
    ['a fractional level', start({ levels: [1.5] }), 'levels.0', /whole number/],
    ['a level that is text', start({ levels: ['four'] }), 'levels.0', /must be a number/],
    ['a level too large', start({ levels: [5000] }), 'levels.0', /level 5000 is above the limit of 4096 concurrent streams/],
    ['too many levels', start({ levels: Array.from({ length: 65 }, (_, i) => i + 1) }), 'levels', /levels 65 is above the limit of 64 levels in one run/],
    ['a huge prompt', start({ promptTokens: 300_000_000 }), 'promptTokens', /promptTokens 300000000 is above the limit of 262144 prompt tokens per request/],
    ['a huge output', start({ outputTokens: 1_000_000 }), 'outputTokens', /outputTokens 1000000 is above the limit of 32768 output tokens/],
    [
      'a billion requests per level',
      start({ requestsPerLevel: 1e9 }),
      'requestsPerLevel',
      /requestsPerLevel 1000000000 is above the limit of 20000 measured requests per level/,
    ],
    ['zero output tokens', start({ outputTokens: 0 }), 'outputTokens', /outputTokens must be positive/],
    ['output tokens as text', start({ outputTokens: 'lots' }), 'outputTokens', /outputTokens must be a number/],
    ['thinking as text', start({ thinking: 'yes' }), 'thinking', /thinking must be true or false/],
    ['a negative hourly cost', start({ hourlyCostUsd: -1 }), 'hourlyCostUsd', /must not be negative/],
    ['a zero baseline rate', start({ baselineRateUsdPer1M: 0 }), 'baselineRateUsdPer1M', /must be positive/],
    ['an unknown field', start({ concurency: [1] }), 'concurency', /unknown field\(s\): concurency/],
  ];
  for (const [what, body, field, message] of cases) {
    it(`refuses ${what}, naming ${field}`, async () => {
      const r = await h.call('POST', '/api/runs', body);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatchObject({ code: 'bad-request', field });
      expect(r.json.error.message).toMatch(new RegExp(`^${field.replace('.', '\\.')}: `));
      expect(r.json.error.message).toMatch(message);
    });
  }
  it('refuses an unknown server with 404 naming serverId', async () => {
    const r = await h.call('POST', '/api/runs', start({ serverId: 999 }));
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ field: 'serverId', message: 'serverId: no server with id 999 is registered' });
  });
});

describe('POST /api/servers: bad bodies', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no name', { baseUrl: 'http://127.0.0.1:1' }, 'name', /name is required/],
    ['a name with spaces', { name: 'my box', baseUrl: 'http://127.0.0.1:1' }, 'name', /letters, digits/],
    ['a name of digits only', { name: '42', baseUrl: 'http://127.0.0.1:1' }, 'name', /name must contain a letter or symbol, not only digits/],
    ['no URL', { name: 'a' }, 'baseUrl', /baseUrl must be an http\(s\) URL/],
    ['a URL that is not http', { name: 'a', baseUrl: 'ftp://x' }, 'baseUrl', /baseUrl must be an http\(s\) URL/],
    ['an empty API key', { name: 'a', baseUrl: 'http://127.0.0.1:1', apiKey: '' }, 'apiKey', /apiKey must not be empty/],
    ['a negative hourly cost', { name: 'a', baseUrl: 'http://127.0.0.1:1', hourlyCostUsd: -3 }, 'hourlyCostUsd', /must not be negative/],
    ['an hourly cost as text', { name: 'a', baseUrl: 'http://127.0.0.1:1', hourlyCostUsd: '6.50' }, 'hourlyCostUsd', /must be a number/],
  ];
  for (const [what, body, field, message] of cases) {
    it(`refuses ${what}, naming ${field}`, async () => {
      const r = await h.call('POST', '/api/servers', body);
      expect(r.status).toBe(400);
      expect(r.json.error.field).toBe(field);
      expect(r.json.error.message).toMatch(message);
    });
  }
  it('refuses a duplicate name with 409 naming name', async () => {
    const r = await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url });
    expect(r.status).toBe(409);
    expect(r.json.error).toMatchObject({ code: 'duplicate', field: 'name' });
  });
});

describe('other bad input', () => {
  it('a run id that is not a number is a 400 naming id', async () => {
    const r = await h.call('GET', '/api/runs/abc');
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ field: 'id', message: "id: 'abc' is not a positive integer" });
  });
  it('an unknown run is a 404, an unknown route too', async () => {
    expect((await h.call('GET', '/api/runs/42')).json.error.message).toBe('there is no run 42');
    expect((await h.call('GET', '/api/nothing')).status).toBe(404);
  });
  it('ingest: a level without records, and a malformed record, name the field', async () => {
    const begun = await h.call('POST', '/api/ingest/runs', {
      serverId: null,
      serverName: null,
      targetUrl: 'http://127.0.0.1:9',
      ownerPid: process.pid,
      ownerHost: 'h',
      spec: 'x',
    });
    expect(begun.status).toBe(400);
    expect(begun.json.error.field).toBe('spec');
    const level = await h.call('POST', '/api/ingest/runs/1/levels', { level: {} });
    expect(level.status).toBe(400);
    expect(level.json.error.field).toMatch(/^level\./);
  });
  it('ingest: an unknown serverId is a 404 naming serverId, not a 500', async () => {
    const spec = {
      url: 'http://127.0.0.1:9',
      model: null,
      endpoint: 'chat',
      levels: [1],
      outputTokens: 8,
      promptTokens: 8,
      requestsPerLevel: 1,
      warmup: 0,
      thinking: false,
      forceLength: false,
      temperature: 0,
      seed: 1,
      hourlyCostUsd: null,
      baselineRateUsdPer1M: null,
      gpuLabel: null,
      command: 'x',
    };
    const r = await h.call('POST', '/api/ingest/runs', {
      serverId: 999,
      serverName: 'ghost',
      targetUrl: 'http://127.0.0.1:9',
      ownerPid: process.pid,
      ownerHost: 'h',
      spec,
    });
    expect(r.status).toBe(404);
    expect(r.json.error).toEqual({ code: 'not-found', field: 'serverId', message: 'serverId: no server with id 999 is registered' });
  });
  it('refuses a state-changing request from another origin, and a foreign Host', async () => {
    const cross = await h.call('POST', '/api/servers/check', undefined, { origin: 'http://evil.example' });
    expect(cross.status).toBe(403);
    const rebinding = await h.call('GET', '/api/servers', undefined, { host: 'evil.example:7878' });
    expect(rebinding.status).toBe(403);
    expect(serverId).toBeGreaterThan(0);
  });
});
