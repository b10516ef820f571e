/**
 * The start body's provider fields — rateLimit, retry, retryMaxWaitS,
 * extraBody, headers — come from the option catalogue like every other field
 * (the command line's defaults and bounds), reach the run's spec, and the API
 * refuses a secret-looking header or a credential-named extra body key by
 * name. End to end against a simulator allowing 120 requests/min: paced by the
 * body, no 429; with the body's retries off, the 429s fail unretried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numericDefault, sweepResultSchema } from '../core/index.js';
import { type SimServer, startSimulator } from '../sim/index.js';
import { type ApiHarness, apiHarness, readEvents } from '../test-support/api-harness.js';
import { startRunSchema } from './start-run-schema.js';

const parse = (extra: object) => startRunSchema.safeParse({ serverId: 1, levels: [1], ...extra });
const refusal = (extra: object) => {
  const r = parse(extra);
  return { path: r.error?.issues[0]?.path.join('.'), message: r.error?.issues[0]?.message };
};

describe('the start body provider fields', () => {
  it('default to the command line defaults: retries as --retry, the wait as --retry-max-wait-s, no pacing, no extras', () => {
    expect(parse({}).data).toMatchObject({
      retry: numericDefault('retry'),
      retryMaxWaitS: numericDefault('retryMaxWaitS'),
      rateLimit: null,
      extraBody: null,
      headers: [],
    });
    expect(parse({ retry: 'off', retryMaxWaitS: 5, rateLimit: 'rpm=60,tpm=90000', extraBody: { priority: 1 }, headers: ['X-Tenant: a'] }).data).toMatchObject({
      retry: 0,
      retryMaxWaitS: 5,
      rateLimit: { kind: 'budget', rpm: 60, tpm: 90000 },
      extraBody: { priority: 1 },
      headers: [{ name: 'X-Tenant', value: 'a' }],
    });
    expect(parse({ rateLimit: 'from-headers' }).data).toMatchObject({ rateLimit: { kind: 'from-headers' } });
  });

  it('refuses each bad value naming its field, with the limits table or the flag parser words', () => {
    expect(refusal({ retry: 11 })).toEqual({
      path: 'retry',
      message: 'retry 11 is above the limit of 10 retries of one request answered 429, 529 or 503 with Retry-After',
    });
    expect(refusal({ retry: 'never' })).toEqual({ path: 'retry', message: 'retry must be a whole number of retries or "off"' });
    expect(refusal({ retryMaxWaitS: 601 }).path).toBe('retryMaxWaitS');
    expect(refusal({ retryMaxWaitS: -1 })).toEqual({ path: 'retryMaxWaitS', message: 'retryMaxWaitS must be 0 or more' });
    expect(refusal({ rateLimit: 'rpm=fast' })).toEqual({
      path: 'rateLimit',
      message: "rateLimit 'rpm=fast' is not rpm=N or tpm=M (give rpm=N,tpm=M or from-headers)",
    });
    expect(refusal({ extraBody: { model: 'other' } })).toEqual({
      path: 'extraBody',
      message: 'extraBody sets model, which goodput writes itself (the workload and the stream are what is measured)',
    });
    expect(refusal({ headers: ['Content-Length: 4'] })).toEqual({
      path: 'headers',
      message: 'headers: Content-Length is set by goodput or by the connection itself, never by --header',
    });
    expect(refusal({ rateLimit: 'rpm=60', endpoint: 'embeddings' }).message).toBe('unknown field(s): rateLimit');
  });

  it('never takes a secret: a header named or shaped like a credential, or a credential-named body key, is refused by name', () => {
    expect(refusal({ headers: ['X-Tenant: a', 'X-Gateway-Key: abc'] })).toEqual({
      path: 'headers',
      message:
        "headers: X-Gateway-Key looks like a secret (its name names a credential, or its value looks random); the API takes no secret in a run's settings: register the server with its key, or send the header from the command line with goodput sweep --header",
    });
    expect(refusal({ headers: ['X-Route: Zq8vK2mN4pR7sT1wX5yB9cD3fG6hJ0'] }).message).toMatch(/^headers: X-Route looks like a secret/);
    expect(refusal({ extraBody: { provider: { api_key: 'x' } } })).toEqual({
      path: 'extraBody',
      message:
        "extraBody holds a key named like a credential; the API takes no secret in a run's settings (send it from the command line with goodput sweep --extra-body)",
    });
  });
});

describe('a run started with provider fields', () => {
  let h: ApiHarness;
  let limited: SimServer;
  let id: number;

  beforeAll(async () => {
    h = await apiHarness();
    // Allows 120 requests a minute, holding 4 (two seconds' worth): a level of 7 sends at once runs past it.
    limited = await startSimulator({
      port: 0,
      prefillBaseMs: 2,
      prefillMsPerToken: 0,
      decodeStepMs: 0.5,
      decodeMsPerExtraSeq: 0,
      rateLimit: { rpm: 120, tpm: null },
    });
    id = (await h.call('POST', '/api/servers', { name: 'provider', baseUrl: limited.url })).json.id;
  });
  afterAll(async () => {
    await h.close();
    await limited.close();
  });

  async function runToEnd(body: object) {
    const started = await h.call('POST', '/api/runs', { serverId: id, levels: [1], outputTokens: 8, promptTokens: 16, requestsPerLevel: 6, ...body });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const res = await h.app.request(`/api/runs/${started.json.runId}/events`, { headers: { host: '127.0.0.1:7878' } });
    expect((await readEvents(res)).at(-1)).toMatchObject({ kind: 'end' });
    return sweepResultSchema.parse((await h.call('GET', `/api/runs/${started.json.runId}/result`)).json);
  }

  it("paces to the body's rate limit (no 429) and records the policy, the extra body and the header", async () => {
    const result = await runToEnd({ rateLimit: 'rpm=120', retry: 2, retryMaxWaitS: 10, extraBody: { priority: 1 }, headers: ['X-Tenant: a'] });
    expect(result.run.rateLimit).toEqual({ kind: 'budget', rpm: 120, tpm: null });
    expect(result.run.retry).toEqual({ retries: 2, maxWaitMs: 10_000 });
    expect(result.run.extraBody).toEqual({ priority: 1 });
    expect(result.run.headers).toEqual([{ name: 'X-Tenant', value: 'a' }]);
    expect(result.levels[0]?.rateLimit?.answered429 ?? 0).toBe(0);
    expect(result.levels[0]?.failed).toBe(0);
  });

  it("with the body's retries off, the provider's 429s fail unretried", async () => {
    const result = await runToEnd({ retry: 'off' });
    expect(result.run.retry).toMatchObject({ retries: 0 });
    expect(result.run.rateLimit).toBeUndefined();
    expect(result.levels[0]?.retries).toBeUndefined();
    expect(result.levels[0]?.failed ?? 0).toBeGreaterThan(0);
  });
});
