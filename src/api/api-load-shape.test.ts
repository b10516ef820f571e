/**
 * The start body's load shape — durationS and rampUpS — from the option
 * catalogue like every other field: a number of seconds or the flag's own
 * text ("60s", "2m"), bounded by the limits table, refused naming the field;
 * a run started with them sends levels bounded by time, its stored result
 * stating the shape and each level's window.
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

describe('the start body load shape', () => {
  it('is absent by default, and takes seconds or the flag text', () => {
    expect(parse({}).data).toMatchObject({ durationS: null, rampUpS: null });
    expect(parse({ durationS: '2m', rampUpS: 5 }).data).toMatchObject({ durationS: 120, rampUpS: 5 });
    expect(parse({ durationS: 90.5 }).data).toMatchObject({ durationS: 90.5 });
  });

  it('refuses each bad value naming its field', () => {
    expect(refusal({ durationS: 0 })).toEqual({ path: 'durationS', message: 'durationS 0 is not above 0 seconds, e.g. 5 or 60s' });
    expect(refusal({ durationS: 'soon' })).toEqual({
      path: 'durationS',
      message: "durationS 'soon' is not a time: give seconds (60 or 60s), minutes (2m) or hours (1h), above 0",
    });
    expect(refusal({ rampUpS: 7200 })).toEqual({
      path: 'rampUpS',
      message: "rampUpS 7200 is above the limit of 3600 seconds a level's closed loop takes to open all its streams (--ramp-up)",
    });
    // A megabyte-sized time is refused by its length, not matched: before, its spaces backtracked quadratically.
    expect(refusal({ durationS: `1${' '.repeat(500_000)}x` })).toEqual({
      path: 'durationS',
      message: 'durationS a time of 500002 characters is above the limit of 32 characters of a time given as text (--duration, --ramp-up: 60s, 2m, 1h)',
    });
    expect(refusal({ durationS: 1e21 })).toEqual({
      path: 'durationS',
      message: 'durationS 1e+21 is above the limit of 3600 seconds one level bounded by time sends for (--duration)',
    });
    expect(refusal({ durationS: true })).toEqual({ path: 'durationS', message: 'durationS must be a number of seconds or a time such as "60s" or "2m"' });
    expect(refusal({ durationS: 60, endpoint: 'embeddings' }).message).toBe('unknown field(s): durationS');
  });
});

describe('a run started with a load shape', () => {
  let h: ApiHarness;
  let id: number;
  beforeAll(async () => {
    h = await apiHarness();
    id = (await h.call('POST', '/api/servers', { name: 'sim', baseUrl: h.sim.url })).json.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('refuses a ramp as long as the duration, and one beside an agent trace, naming the field, before anything runs', async () => {
    const ramp = await h.call('POST', '/api/runs', { serverId: id, levels: [2], durationS: 1, rampUpS: '1s' });
    expect(ramp.status).toBe(400);
    expect(ramp.json.error).toMatchObject({
      field: 'rampUpS',
      message: 'rampUpS: the ramp (1 s) must end before the level does (duration 1 s): the measured window is what is left of the duration after it',
    });
    const trace = { name: 't.jsonl', text: '{"session_id":"a","turn":0,"timestamp":0,"input_length":16,"output_length":8}\n' };
    const agents = await h.call('POST', '/api/runs', { serverId: id, levels: [1], durationS: 1, agentTrace: trace });
    expect(agents.status).toBe(400);
    expect(agents.json.error).toMatchObject({ field: 'durationS' });
  });

  it('sends levels bounded by time; the stored result states the shape and each level its window', async () => {
    const started = await h.call('POST', '/api/runs', { serverId: id, levels: [2], outputTokens: 8, promptTokens: 16, durationS: '0.4s', rampUpS: 0.2 });
    expect(started.status, JSON.stringify(started.json)).toBe(201);
    const res = await h.app.request(`/api/runs/${started.json.runId}/events`, { headers: { host: '127.0.0.1:7878' } });
    const events = await readEvents(res);
    expect(events.at(-1)).toMatchObject({ kind: 'end' });
    // The page's progress fills with the level's time: the live level says how long it sends.
    const live = events.flatMap((e) => [e.progress, e.state?.current]).filter((p) => p !== undefined && p !== null);
    expect(live.some((p) => p.concurrency === 2 && p.durationS === 0.4)).toBe(true);
    const result = sweepResultSchema.parse((await h.call('GET', `/api/runs/${started.json.runId}/result`)).json);
    expect(result.run.loadShape).toEqual({ durationS: 0.4, rampUpS: 0.2 });
    expect(result.levels[0]?.window).toMatchObject({ durationS: 0.4, rampUpS: 0.2, endedBy: 'duration' });
  });
});
