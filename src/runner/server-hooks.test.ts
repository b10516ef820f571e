/**
 * The level loop with server hooks plugged in (a fake kind, fake hooks): each
 * call kept on the level it ran beside, a failed reset ending the run before
 * its level with the reason, a failed profiler stop kept and warned about.
 */
import { describe, expect, it } from 'vitest';
import type { LevelResult, ServerHookCall } from '../core/index.js';
import { type LevelHooks, type LevelKind, sweepLevels, sweepTalk } from './level-loop.js';

const call = (hook: ServerHookCall['hook'], route: string, status = 200): ServerHookCall => ({
  hook,
  at: '2026-12-06T17:00:00.000Z',
  route,
  status,
  ms: 1,
  answer: '',
});

function kindWith(serverHooks: LevelHooks): LevelKind<'text'> {
  return {
    order: [1, 2],
    warmup: 0,
    requestsAt: () => 1,
    level: async (at) => ({ kind: 'level', level: { concurrency: at.concurrency } as LevelResult, records: [] }),
    serverHooks,
  };
}

describe('sweepLevels with server hooks', () => {
  it('keeps each call on its level, and ends the run before a level whose reset failed', async () => {
    const talk = sweepTalk<'text'>({});
    const end = await sweepLevels(
      talk,
      {},
      kindWith({
        before: async (level) =>
          level === 1
            ? { calls: [call('reset-cache', 'POST /flush_cache')], failed: null }
            : {
                calls: [call('reset-cache', 'POST /flush_cache', 400)],
                failed: 'SGLang did not empty its prefix cache before level 2: POST /flush_cache answered 400',
              },
        after: async () => ({ calls: [], failed: null }),
      }),
    );
    expect(end.status).toBe('server-failed');
    expect(end.stopReason).toBe('SGLang did not empty its prefix cache before level 2: POST /flush_cache answered 400. Level 1 is complete.');
    expect(end.levels).toEqual([{ concurrency: 1, serverHooks: [call('reset-cache', 'POST /flush_cache')] }]);
  });

  it('keeps a failed profiler stop on its level and warns', async () => {
    const talk = sweepTalk<'text'>({});
    const end = await sweepLevels(
      talk,
      {},
      kindWith({
        before: async (level) => ({ calls: level === 2 ? [call('start-profile', 'POST /start_profile')] : [], failed: null }),
        after: async (level) =>
          level === 2
            ? { calls: [call('stop-profile', 'POST /stop_profile', 500)], failed: 'vLLM did not stop its profiler after level 2' }
            : { calls: [], failed: null },
      }),
    );
    expect(end.status).toBe('complete');
    expect(end.levels[0]).toEqual({ concurrency: 1 });
    expect(end.levels[1]?.serverHooks?.map((c) => c.hook)).toEqual(['start-profile', 'stop-profile']);
    expect(talk.warnings).toEqual([{ code: 'server-hook-failed', message: 'vLLM did not stop its profiler after level 2' }]);
  });
});
