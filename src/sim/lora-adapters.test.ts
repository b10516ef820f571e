/**
 * The simulator's LoRA adapters, as vLLM serves them: each listed in
 * `/v1/models` after the model with the model as its `parent`, a request that
 * names one answered under its name, a name it does not serve a 404; the flag
 * that lists them, and a profile that names a model twice refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simProfileSchema } from './profile-schema.js';
import { type SimServer, startSimulator } from './server.js';
import { applyFlags } from './sim-flags.js';
import { streamPost } from '../test-support/sim-test-client.js';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimulator({ prefillBaseMs: 1, decodeStepMs: 1, loraAdapters: [{ name: 'sql-lora' }, { name: 'chat-lora', decodeExtraMs: 3 }] });
});
afterAll(async () => {
  await sim?.close();
});

describe('a simulator serving LoRA adapters', () => {
  it('lists each after the model, with the model as its parent and no context length of its own', async () => {
    const body = (await (await fetch(`${sim.url}/v1/models`)).json()) as { data: Array<Record<string, unknown>> };
    expect(body.data.map((m) => [m['id'], m['parent']])).toEqual([
      ['goodput-sim-1', null],
      ['sql-lora', 'goodput-sim-1'],
      ['chat-lora', 'goodput-sim-1'],
    ]);
    expect(body.data[2]).toMatchObject({ object: 'model', root: 'chat-lora', max_model_len: null });
  });

  it('answers a request naming an adapter under its name, and refuses a model it does not serve', async () => {
    const ok = await streamPost(sim.url, '/v1/chat/completions', {
      model: 'chat-lora',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 3,
      stream: true,
    });
    expect(ok.status).toBe(200);
    expect(ok.events[0]?.json?.['model']).toBe('chat-lora');
    const missing = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'nope-lora', messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 }),
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe('The model `nope-lora` does not exist.');
    const counted = await fetch(`${sim.url}/tokenize`, { method: 'POST', body: JSON.stringify({ model: 'sql-lora', prompt: 'a b c' }) });
    expect(counted.status).toBe(200);
  });
});

describe('--lora-adapters', () => {
  it('lists adapters, each with the decode time it adds', () => {
    const profile = simProfileSchema.parse(applyFlags({}, { loraAdapters: 'sql-lora, chat-lora=30' }));
    expect(profile.loraAdapters).toEqual([
      { name: 'sql-lora', decodeExtraMs: 0 },
      { name: 'chat-lora', decodeExtraMs: 30 },
    ]);
  });

  it('refuses a name served twice, the model included, and a time that is no number', () => {
    const issue = (input: unknown) => simProfileSchema.safeParse(input).error?.issues[0];
    expect(issue(applyFlags({}, { loraAdapters: 'goodput-sim-1' }))).toMatchObject({
      path: ['loraAdapters', 0, 'name'],
      message: 'goodput-sim-1 is already served; name each model once',
    });
    expect(issue(applyFlags({}, { loraAdapters: 'a,a' }))?.path).toEqual(['loraAdapters', 1, 'name']);
    expect(issue(applyFlags({}, { loraAdapters: 'a=fast' }))?.path).toEqual(['loraAdapters', 0, 'decodeExtraMs']);
  });
});
