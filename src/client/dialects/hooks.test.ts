/**
 * The hook calls as the engines answer them: the simulator found by its own
 * `/sim/config` when its dialect has no route, a failed reset named with its
 * route and answer, and an answer kept printable and short.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimServer, startSimulator } from '../../sim/index.js';
import { type TextServer, startTextServer } from '../../test-support/text-server.js';
import { SIMULATOR_HOOKS, profilerCall, resetPrefixCache, serverHooksOf } from './hooks.js';
import { dialects } from './registry.js';

let sim: SimServer;
let sglang: SimServer;
let broken: TextServer;

beforeAll(async () => {
  [sim, sglang] = await Promise.all([startSimulator(), startSimulator({ dialect: 'sglang' })]);
  broken = await startTextServer((path) =>
    path === '/reset_prefix_cache' ? { status: 404, body: `{"detail":"Not Found \u001b[31m${'x'.repeat(2000)}"}` } : null,
  );
});
afterAll(async () => {
  await Promise.all([sim?.close(), sglang?.close(), broken?.close()]);
});

describe('serverHooksOf', () => {
  it("takes the dialect's routes, else the simulator's own, else none", async () => {
    expect(await serverHooksOf({ baseUrl: sglang.url }, dialects.sglang)).toEqual({ label: 'SGLang', hooks: dialects.sglang.hooks });
    expect(await serverHooksOf({ baseUrl: sim.url }, dialects.generic)).toEqual({ label: 'the goodput simulator', hooks: SIMULATOR_HOOKS });
    expect(await serverHooksOf({ baseUrl: broken.url }, dialects.tgi)).toBeNull();
  });
});

describe('resetPrefixCache and profilerCall', () => {
  it("empty SGLang's cache and start its profiler, each call recorded", async () => {
    const hooks = dialects.sglang.hooks;
    if (hooks === undefined) throw new Error('SGLang has hooks');
    const reset = await resetPrefixCache({ baseUrl: sglang.url }, hooks, 5000);
    expect(reset).toMatchObject({ failed: null, calls: [{ hook: 'reset-cache', route: 'POST /flush_cache', status: 200, answer: 'Cache flushed.' }] });
    const start = await profilerCall({ baseUrl: sglang.url }, hooks, 'start', 5000);
    expect(start).toMatchObject({ failed: null, calls: [{ hook: 'start-profile', route: 'POST /start_profile', status: 200 }] });
  });

  it('a refused reset is a failure naming the route and the answer, kept printable and cut to 512 characters', async () => {
    const hooks = dialects.vllm.hooks;
    if (hooks === undefined) throw new Error('vLLM has hooks');
    const out = await resetPrefixCache({ baseUrl: broken.url }, hooks, 5000);
    const answer = out.calls[0]?.answer ?? '';
    expect(answer).toHaveLength(512);
    expect(answer).not.toContain('\u001b');
    expect(answer.startsWith('{"detail":"Not Found ')).toBe(true);
    expect(out.failed).toBe(`POST /reset_prefix_cache answered 404 (${answer})`);
  });

  it('no answer is status 0 with why', async () => {
    const hooks = dialects.vllm.hooks;
    if (hooks === undefined) throw new Error('vLLM has hooks');
    const out = await resetPrefixCache({ baseUrl: 'http://127.0.0.1:9' }, hooks, 2000);
    expect(out.calls[0]).toMatchObject({ status: 0, answer: expect.stringMatching(/^no answer: /) });
    expect(out.failed).toMatch(/^POST \/reset_prefix_cache answered nothing \(no answer: /);
  });
});
