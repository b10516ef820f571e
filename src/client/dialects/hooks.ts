/**
 * The server hooks' calls: an engine's prefix-cache reset (one POST, or
 * llama.cpp's erase of every slot `GET /props` counts) and its profiler's
 * start and stop, each bounded in time and in what is read back, and recorded
 * as it went (when, the route, the status, the answer kept short and
 * printable). The goodput simulator serves its own reset route whatever
 * engine it plays, so a run against it has one when its dialect has none.
 */
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { LIMITS, type ServerHookCall, type ServerHookKind, sanitizeForTerminal } from '../../core/index.js';
import { readBounded } from '../bounded-body.js';
import { type ResolvedTarget, resolveTarget } from '../target.js';
import type { Target } from '../types.js';
import type { Dialect, EngineHooks } from './types.js';

/** The goodput simulator's own reset route, served in every dialect it plays. */
export const SIMULATOR_HOOKS: EngineHooks = {
  resetCache: { kind: 'post', path: '/sim/reset-prefix-cache' },
  profiler: null,
  needs: 'the goodput simulator serves POST /sim/reset-prefix-cache in every dialect',
};

/** The hooks a server offers, with the name a refusal or a failure gives it. */
export interface ServerHooks {
  label: string;
  hooks: EngineHooks;
}

/** What a hook call's answer keeps: printable text on one line, cut to the limits table's hookAnswerChars. */
export function keptAnswer(text: string): string {
  return sanitizeForTerminal(text.replace(/\s+/g, ' ').trim()).slice(0, LIMITS.hookAnswerChars.max);
}

/** One call: never rejects; no answer in time is status 0 with why. */
async function call(
  t: ResolvedTarget,
  hook: ServerHookKind,
  method: 'GET' | 'POST',
  path: string,
  timeoutMs: number,
): Promise<ServerHookCall & { text: string }> {
  const at = new Date().toISOString();
  const t0 = performance.now();
  const done = (status: number, text: string) => ({
    hook,
    at,
    route: `${method} ${path}`,
    status,
    ms: performance.now() - t0,
    answer: keptAnswer(t.redact(text)),
    text,
  });
  try {
    const res = await request(`${t.origin}${t.prefix}${path}`, {
      method,
      headers: { accept: 'application/json', ...t.authHeaders },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const read = await readBounded(res.body);
    return done(res.statusCode, read.ok ? read.text : `(an answer past ${LIMITS.probeResponseBytes.max} bytes, dropped unread)`);
  } catch (err) {
    return done(0, `no answer: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A call the engine answered with success. */
export const hookSucceeded = (c: Pick<ServerHookCall, 'status'>): boolean => c.status >= 200 && c.status < 300;

/** The simulator answers `GET /sim/config` with its own name, whatever engine it plays. */
async function isSimulator(t: ResolvedTarget, timeoutMs: number): Promise<boolean> {
  const c = await call(t, 'reset-cache', 'GET', '/sim/config', timeoutMs);
  if (!hookSucceeded(c)) return false;
  try {
    return (JSON.parse(c.text) as { simulator?: unknown }).simulator === 'goodput-sim';
  } catch {
    return false;
  }
}

/** The hooks of the server at `target`: its dialect's, else the simulator's own; null when it has none. */
export async function serverHooksOf(target: Target, dialect: Dialect, timeoutMs = 2_000): Promise<ServerHooks | null> {
  if (dialect.hooks !== undefined) return { label: dialect.label, hooks: dialect.hooks };
  return (await isSimulator(resolveTarget(target), timeoutMs)) ? { label: 'the goodput simulator', hooks: SIMULATOR_HOOKS } : null;
}

/** llama.cpp's slot count from `GET /props` (`total_slots`), or why it cannot be had. */
async function slotCount(t: ResolvedTarget, timeoutMs: number): Promise<{ calls: ServerHookCall[]; slots: number | string }> {
  const { text, ...props } = await call(t, 'reset-cache', 'GET', '/props', timeoutMs);
  if (!hookSucceeded(props)) return { calls: [props], slots: `GET /props answered ${props.status}` };
  let slots: unknown;
  try {
    slots = (JSON.parse(text) as { total_slots?: unknown }).total_slots;
  } catch {
    slots = undefined;
  }
  const n = typeof slots === 'number' && Number.isInteger(slots) && slots >= 1 ? slots : null;
  if (n === null) return { calls: [props], slots: 'GET /props gave no total_slots' };
  if (n > LIMITS.serverSlots.max)
    return { calls: [props], slots: `GET /props counts ${n} slots, above the limit of ${LIMITS.serverSlots.max} ${LIMITS.serverSlots.what}` };
  return { calls: [props], slots: n };
}

/** What a hook did: every call in order, and why it failed (null when every call succeeded). */
export interface HookOutcome {
  calls: ServerHookCall[];
  failed: string | null;
}

const strip = ({ text: _text, ...c }: ServerHookCall & { text: string }): ServerHookCall => c;
const failure = (c: ServerHookCall) => `${c.route} answered ${c.status === 0 ? 'nothing' : c.status}${c.answer === '' ? '' : ` (${c.answer})`}`;

/** Empties the server's prefix cache as `hooks` say; stops at the first call that fails. */
export async function resetPrefixCache(target: Target, hooks: EngineHooks, timeoutMs: number): Promise<HookOutcome> {
  const t = resolveTarget(target);
  const how = hooks.resetCache;
  if (how === null) return { calls: [], failed: 'the engine has no cache reset' };
  if (how.kind === 'post') {
    const c = strip(await call(t, 'reset-cache', 'POST', how.path, timeoutMs));
    return { calls: [c], failed: hookSucceeded(c) ? null : failure(c) };
  }
  const { calls, slots } = await slotCount(t, timeoutMs);
  if (typeof slots === 'string') return { calls, failed: slots };
  for (let id = 0; id < slots; id++) {
    const c = strip(await call(t, 'reset-cache', 'POST', `/slots/${id}?action=erase`, timeoutMs));
    calls.push(c);
    if (!hookSucceeded(c)) return { calls, failed: failure(c) };
  }
  return { calls, failed: null };
}

/** Starts or stops the engine's profiler. */
export async function profilerCall(target: Target, hooks: EngineHooks, which: 'start' | 'stop', timeoutMs: number): Promise<HookOutcome> {
  if (hooks.profiler === null) return { calls: [], failed: 'the engine has no profiler routes' };
  const c = strip(await call(resolveTarget(target), which === 'start' ? 'start-profile' : 'stop-profile', 'POST', hooks.profiler[which], timeoutMs));
  return { calls: [c], failed: hookSucceeded(c) ? null : failure(c) };
}
