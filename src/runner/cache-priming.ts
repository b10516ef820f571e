/**
 * A primed cell's prime: before each of its levels (after a cache reset, when
 * one was asked for) its shared prefix is sent `times` times, one after the
 * other, over the sweep's own client in the engine's dialect, so the level's
 * first measured request finds the prefix cached on purpose rather than by the
 * luck of a warm-up. Each request is kept on the level as a `prime` call (when,
 * the route, the status, the prompt and cached tokens the engine reported); one
 * that fails ends the sweep before its level, which would not be what its cell
 * says.
 */
import { type Outcome, e2eMs } from '../core/index.js';
import { type Clock, type Dialect, type RequestSpec, type StreamingClient, keptAnswer } from '../client/index.js';
import type { HookStep, LevelHooks } from './level-loop.js';
import type { SweepSpec } from './sweep-spec.js';

/** What the prime is sent with: the sweep's client and clock, the engine's dialect and the model preflight found. */
export interface PrimingContext {
  client: StreamingClient;
  dialect: Dialect;
  model: string;
  clock: Clock;
  signal: AbortSignal;
}

type Prime = NonNullable<SweepSpec['serverHooks']['prime']>;

const NONE: HookStep = { calls: [], failed: null };

/** The level hooks with the cell's prime sent after their own `before`; the hooks as given when the cell is not primed. */
export function withPriming(hooks: LevelHooks | null, spec: SweepSpec, ctx: PrimingContext): LevelHooks | null {
  const prime = spec.serverHooks.prime;
  if (prime === null) return hooks;
  return {
    async before(level, index) {
      const pre = (await hooks?.before(level, index)) ?? NONE;
      if (pre.failed !== null) return pre;
      const primed = await sendPrime(spec, prime, ctx, level);
      return { calls: [...pre.calls, ...primed.calls], failed: primed.failed };
    },
    after: (level, index) => hooks?.after(level, index) ?? Promise.resolve(NONE),
  };
}

/** The prefix alone, as a request of the cell's endpoint: one output token, no cache control (it is meant to be cached). */
function primeRequest(spec: SweepSpec, prime: Prime, model: string): RequestSpec {
  return {
    endpoint: spec.endpoint,
    model,
    prompt: prime.prefix,
    maxTokens: 1,
    forceLength: false,
    thinking: spec.thinking,
    temperature: spec.temperature,
    seed: spec.seed,
    ...(spec.topP === null ? {} : { topP: spec.topP }),
    ...(spec.extraBody === null ? {} : { passThrough: spec.extraBody }),
  };
}

/** An outcome in words: its kind, then its status and message where it has them. */
function outcomeWords(o: Outcome): string {
  const status = 'status' in o ? ` ${o.status}` : '';
  return `${o.kind}${status}${'message' in o && o.message !== '' ? `: ${o.message}` : ''}`;
}

/** Sends the prime, stopping at the first request that fails; a stop by the user ends it without a failure (the level loop sees the stop). */
async function sendPrime(spec: SweepSpec, prime: Prime, ctx: PrimingContext, level: number): Promise<HookStep> {
  const route = `POST ${ctx.dialect.api.paths[spec.endpoint] ?? spec.endpoint}`;
  const request = primeRequest(spec, prime, ctx.model);
  const calls: HookStep['calls'] = [];
  for (let i = 0; i < prime.times; i++) {
    if (ctx.signal.aborted) return { calls, failed: null };
    const at = new Date().toISOString();
    const r = await ctx.client.send(request, { seq: i, concurrency: level, warmup: true, targetSendNs: ctx.clock() }, ctx.signal);
    if (r.outcome.kind === 'aborted') return { calls, failed: null };
    const ok = r.outcome.kind === 'ok';
    const answer = ok ? `${r.promptTokens ?? 'unreported'} prompt tokens, ${r.cachedPromptTokens ?? 'unreported'} cached` : keptAnswer(outcomeWords(r.outcome));
    calls.push({ hook: 'prime', at, route, status: r.httpStatus ?? 0, ms: Math.max(0, e2eMs(r) ?? 0), answer });
    if (!ok)
      return {
        calls,
        failed: `the prime before level ${level} failed at request ${i + 1} of ${prime.times} (${answer}): the level would not start on its shared prefix cached`,
      };
  }
  return { calls, failed: null };
}
