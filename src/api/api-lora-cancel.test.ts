/**
 * The start body's LoRA adapters and cancellation — lora, cancelAfterMs,
 * cancelAfterTokens, cancelFraction — from the option catalogue like every
 * other field: the flag's own text read by the parser the command line uses,
 * numbers within the option's declared bounds and limits rows, each refusal
 * naming the field; a run started with them sends to the adapters, gives the
 * chosen share up, and its stored result and records say so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepResultSchema } from '../core/index.js';
import { type ApiHarness, apiHarness, readEvents } from '../test-support/api-harness.js';
import { startRunSchema } from './start-run-schema.js';

const parse = (extra: object) => startRunSchema.safeParse({ serverId: 1, levels: [1], ...extra });
const refusal = (extra: object) => {
  const r = parse(extra);
  return { path: r.error?.issues[0]?.path.join('.'), message: r.error?.issues[0]?.message };
};

describe('the start body adapters and cancellation', () => {
  it('are absent by default, and read as the flags are', () => {
    expect(parse({}).data).toMatchObject({ lora: null, cancelAfterMs: null, cancelAfterTokens: null, cancelFraction: null });
    expect(parse({ lora: 'sql-lora=3, chat-lora=1', cancelAfterMs: 500, cancelAfterTokens: 8, cancelFraction: 0.25 }).data).toMatchObject({
      lora: [
        { name: 'sql-lora', weight: 3 },
        { name: 'chat-lora', weight: 1 },
      ],
      cancelAfterMs: 500,
      cancelAfterTokens: 8,
      cancelFraction: 0.25,
    });
  });

  it('refuses each bad value naming its field, in the words the command line uses', () => {
    expect(refusal({ lora: 'sql-lora' })).toEqual({ path: 'lora', message: 'lora adapter 1 is not name=weight (e.g. sql-lora=3,chat-lora=1)' });
    expect(refusal({ lora: 'a=1,a=2' })).toEqual({ path: 'lora', message: 'lora adapter 2: a is named twice; name each adapter once' });
    expect(refusal({ lora: 3 })).toEqual({ path: 'lora', message: 'lora must be text as --lora takes it (<name=weight,…>), or null' });
    expect(refusal({ lora: 'a=1,'.repeat(5000) })).toEqual({ path: 'lora', message: 'lora must be at most 17920 characters' });
    expect(refusal({ cancelAfterMs: 0 })).toEqual({ path: 'cancelAfterMs', message: 'cancelAfterMs must be above 0' });
    expect(refusal({ cancelAfterMs: 2.5 })).toEqual({ path: 'cancelAfterMs', message: 'cancelAfterMs must be a whole number' });
    expect(refusal({ cancelAfterMs: 4_000_000 })).toEqual({
      path: 'cancelAfterMs',
      message: 'cancelAfterMs 4000000 is above the limit of 3600000 ms after its send a request is given up on purpose (--cancel-after-ms)',
    });
    expect(refusal({ cancelAfterTokens: 40_000 })).toEqual({
      path: 'cancelAfterTokens',
      message: 'cancelAfterTokens 40000 is above the limit of 32768 output tokens per request',
    });
    expect(refusal({ cancelFraction: 1.5 })).toEqual({ path: 'cancelFraction', message: 'cancelFraction must be at most 1' });
    expect(refusal({ cancelFraction: '0.5' })).toEqual({ path: 'cancelFraction', message: 'cancelFraction must be a number, or null for none' });
    expect(refusal({ lora: 'a=1', endpoint: 'embeddings' }).message).toBe('unknown field(s): lora');
    expect(refusal({ cancelAfterMs: 5, endpoint: 'rerank' }).message).toBe('unknown field(s): cancelAfterMs');
  });
});

describe('a run started with adapters and cancellation', () => {
  let h: ApiHarness;
  let id: number;
  beforeAll(async () => {
    h = await apiHarness({ decodeStepMs: 1, loraAdapters: [{ name: 'sql-lora' }, { name: 'chat-lora' }] });
    id = (await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url })).json.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a share with no point, and a point beside an agent trace, naming the field, before anything runs', async () => {
    const alone = await h.call('POST', '/api/runs', { serverId: id, levels: [1], cancelFraction: 0.5 });
    expect(alone.status).toBe(400);
    expect(alone.json.error).toMatchObject({
      field: 'cancelFraction',
      message: 'cancelFraction: needs cancelAfterMs or cancelAfterTokens (when a request is given up)',
    });
    const trace = { name: 't.jsonl', text: '{"session_id":"a","turn":0,"timestamp":0,"input_length":16,"output_length":8}\n' };
    const agents = await h.call('POST', '/api/runs', { serverId: id, levels: [1], cancelAfterTokens: 2, agentTrace: trace });
    expect(agents.status).toBe(400);
    expect(agents.json.error).toMatchObject({
      field: 'cancelAfterTokens',
      message: "cancelAfterTokens: an agent trace's turns are not given up one by one (each turn carries the answer before it)",
    });
    expect((await h.call('GET', '/api/runs')).json).toEqual([]);
  });

  it('refuses an adapter the server does not list, naming the field, before a run is begun', async () => {
    const started = await h.call('POST', '/api/runs', { serverId: id, levels: [1], outputTokens: 4, lora: 'sql-lora=1,nope-lora=1' });
    expect(started.status).toBe(400);
    expect(started.json.error.field).toBe('lora');
    expect(started.json.error.message).toMatch(
      /^lora: adapter "nope-lora" is not listed in the \/v1\/models of http:\/\/127\.0\.0\.1:\d+ \(it lists [^)]*sql-lora, chat-lora\); load it on the server \(vLLM: --lora-modules nope-lora=PATH\) or leave it out of lora$/,
    );
    expect((await h.call('GET', '/api/runs')).json).toEqual([]);
  });

  it('sends each request to its adapter and gives up the chosen share; the stored result and records say so', async () => {
    const body = { serverId: id, levels: [2], requestsPerLevel: 8, outputTokens: 48, promptTokens: 16, lora: 'sql-lora=3,chat-lora=1' };
    const started = await h.call('POST', '/api/runs', { ...body, cancelAfterTokens: 4, cancelFraction: 0.5 });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const runId = started.json.runId as number;
    const res = await h.app.request(`/api/runs/${runId}/events`, { headers: { host: '127.0.0.1:7878' } });
    expect((await readEvents(res)).at(-1)).toMatchObject({ kind: 'end', status: 'complete' });

    const result = sweepResultSchema.parse((await h.call('GET', `/api/runs/${runId}/result`)).json);
    expect(result.run.lora).toEqual([
      { name: 'sql-lora', weight: 3 },
      { name: 'chat-lora', weight: 1 },
    ]);
    expect(result.run.command).toContain(', LoRA sql-lora=3,chat-lora=1, cancel after 4 tokens (share 0.5)');
    const level = result.levels[0];
    expect(level?.cancelled).toMatchObject({ requests: 4, afterTokens: 4, afterMs: 0 });
    expect(level?.failed).toBe(0);
    const adapters = level?.adapters ?? [];
    expect(adapters.map((a) => a.name).sort()).toEqual(['chat-lora', 'sql-lora']);
    expect(adapters.reduce((n, a) => n + a.requests, 0)).toBe(8);

    const records = (await h.call('GET', `/api/runs/${runId}/records`)).json as Array<{ warmup: boolean; adapter?: string; outcome: { kind: string } }>;
    const measured = records.filter((r) => !r.warmup);
    expect(measured.filter((r) => r.outcome.kind === 'cancelled')).toHaveLength(4);
    expect(measured.every((r) => r.adapter === 'sql-lora' || r.adapter === 'chat-lora')).toBe(true);
    for (const a of adapters) expect(measured.filter((r) => r.adapter === a.name)).toHaveLength(a.requests);
  });
});
