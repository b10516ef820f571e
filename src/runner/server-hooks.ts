/**
 * The server hooks of a text sweep, plugged into the level loop around each
 * level: the engine's prefix cache emptied before every level (or before the
 * first, a contract cell's), and its profiler started before one level and
 * stopped after it. Settled before anything is sent: an engine without the
 * route asked for is refused by name. A reset or a profiler start that fails
 * ends the sweep before the level it was for (that level would not be what it
 * says); a stop that fails is kept on the level and warned about.
 */
import { LIMITS } from '../core/index.js';
import { type Dialect, type EngineHooks, type HookOutcome, type Target, profilerCall, resetPrefixCache, serverHooksOf } from '../client/index.js';
import { SweepError } from './errors.js';
import type { LevelHooks } from './level-loop.js';
import type { SweepSpec } from './sweep-spec.js';

const NOTHING: HookOutcome = { calls: [], failed: null };

/** The sweep's level hooks, or null when none was asked for; refuses by name an engine without the routes asked for. */
export async function levelHooksFor(spec: SweepSpec, target: Target, dialect: Dialect): Promise<LevelHooks | null> {
  const { resetCache, profileLevel } = spec.serverHooks;
  if (resetCache === null && profileLevel === null) return null;
  const found = await serverHooksOf(target, dialect);
  const label = found?.label ?? dialect.label;
  if (resetCache !== null && !found?.hooks.resetCache)
    throw new SweepError(
      'bad-input',
      `--reset-cache-between: ${label} has no route that empties its prefix cache (vLLM, SGLang, llama.cpp and the goodput simulator have one); nothing was sent`,
    );
  if (profileLevel !== null && !found?.hooks.profiler)
    throw new SweepError(
      'bad-input',
      `--profile-level: ${label} has no profiler routes (vLLM and SGLang serve /start_profile and /stop_profile); nothing was sent`,
    );
  return hooksAround(spec, target, (found as { hooks: EngineHooks }).hooks, label);
}

function hooksAround(spec: SweepSpec, target: Target, hooks: EngineHooks, label: string): LevelHooks {
  const { resetCache, profileLevel } = spec.serverHooks;
  const timeoutMs = Math.min(spec.timeouts.totalMs, LIMITS.hookWaitS.max * 1000);
  const why = (what: string, o: HookOutcome) => `${what}: ${o.failed ?? ''}; ${hooks.needs}`;
  return {
    async before(level, index) {
      const calls: HookOutcome['calls'] = [];
      if (resetCache === 'every-level' || (resetCache === 'first-level' && index === 0)) {
        const reset = await resetPrefixCache(target, hooks, timeoutMs);
        calls.push(...reset.calls);
        if (reset.failed !== null) return { calls, failed: why(`${label} did not empty its prefix cache before level ${level}`, reset) };
      }
      if (level === profileLevel) {
        const start = await profilerCall(target, hooks, 'start', timeoutMs);
        calls.push(...start.calls);
        if (start.failed !== null) return { calls, failed: why(`${label} did not start its profiler before level ${level}`, start) };
      }
      return { calls, failed: null };
    },
    async after(level) {
      if (level !== profileLevel) return NOTHING;
      const stop = await profilerCall(target, hooks, 'stop', timeoutMs);
      return stop.failed === null ? stop : { calls: stop.calls, failed: why(`${label} did not stop its profiler after level ${level}`, stop) };
    },
  };
}
