/**
 * What a server hook left in the level it ran beside: each call goodput made
 * to the engine's own admin routes between levels (a prefix-cache reset, the
 * profiler started before the level and stopped after it) and each request
 * that sent a primed cell's shared prefix before it, when, and what the engine
 * answered, so a cold level says how it was made cold and a primed one how it
 * was primed.
 */
import { z } from 'zod';
import { LIMITS } from './limits.js';

export const SERVER_HOOK_KINDS = ['reset-cache', 'start-profile', 'stop-profile', 'prime'] as const;
export type ServerHookKind = (typeof SERVER_HOOK_KINDS)[number];

/** How often the prefix cache is emptied: before every level, or before the first level of each contract cell. */
export const RESET_CACHE_BETWEEN = ['cells', 'levels'] as const;
export type ResetCacheBetween = (typeof RESET_CACHE_BETWEEN)[number];

export const serverHookCallSchema = z
  .object({
    hook: z.enum(SERVER_HOOK_KINDS),
    /** When it was sent, ISO 8601. */
    at: z.string().max(40),
    /** Method and path, e.g. `POST /reset_prefix_cache`. */
    route: z.string().max(300),
    /** The HTTP status; 0 when no answer came. */
    status: z.number().int().min(0).max(999),
    ms: z.number().nonnegative(),
    /** The answer's text (or why none came), printable and cut to the limits table's hookAnswerChars. */
    answer: z.string().max(LIMITS.hookAnswerChars.max),
  })
  .strict();
export type ServerHookCall = z.infer<typeof serverHookCallSchema>;

/** Calls one level may carry: a reset of every slot, the profiler's start and stop, and the priming requests. */
export const MAX_HOOK_CALLS = LIMITS.serverSlots.max + 2 + LIMITS.primeRequests.max;
