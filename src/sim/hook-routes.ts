/**
 * The engines' admin routes the server hooks call, as the dialect played
 * serves them: vLLM's `POST /reset_prefix_cache`, SGLang's `POST /flush_cache`
 * (refused while requests run, as SGLang does), llama.cpp's `GET /slots` and
 * `POST /slots/{id}?action=erase`, and vLLM's and SGLang's profiler routes
 * (nothing to profile here: they answer as the engine does). The simulator's
 * own `POST /sim/reset-prefix-cache` is served whatever engine it plays. The
 * simulator keeps one cache for every slot, so erasing any slot empties it.
 */
import type { ServerResponse } from 'node:http';
import type { BatchEngine } from './batch-engine.js';
import type { SimDialectKind } from './dialects/kinds.js';
import { sendError, sendJson } from './http-util.js';
import type { PrefixCache } from './prefix-cache.js';
import type { SimProfile } from './profile-schema.js';

/** What the hook routes read and change. */
export interface HookContext {
  cache: PrefixCache | null;
  engine: BatchEngine;
  profile: SimProfile;
}

type HookRoute = (ctx: HookContext, res: ServerResponse, query: URLSearchParams, slot: number | null) => void;

const empty = (res: ServerResponse, status = 200) => {
  res.writeHead(status, { 'content-length': 0 });
  res.end();
};
const text = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
};
const clear = (ctx: HookContext) => ctx.cache?.clear() ?? 0;
const busy = (ctx: HookContext) => ctx.engine.runningCount + ctx.engine.waitingCount > 0;

const PROFILER: Readonly<Record<string, HookRoute>> = {
  'POST /start_profile': (_ctx, res) => text(res, 200, 'Start profiling.\n'),
  'POST /stop_profile': (_ctx, res) => text(res, 200, 'Stop profiling. This will take some time.\n'),
};

/** Each dialect's own hook routes, by "METHOD /path" (a slot's route as `/slots/:id`). */
const BY_DIALECT: Partial<Record<SimDialectKind, Readonly<Record<string, HookRoute>>>> = {
  vllm: {
    'POST /reset_prefix_cache': (ctx, res) => {
      clear(ctx);
      empty(res);
    },
    ...PROFILER,
  },
  sglang: {
    'POST /flush_cache': (ctx, res) => {
      if (busy(ctx)) return text(res, 400, 'Cache not flushed: there are running or waiting requests.\n');
      clear(ctx);
      text(res, 200, 'Cache flushed.\n');
    },
    ...PROFILER,
  },
  llamacpp: {
    'GET /slots': (ctx, res) =>
      sendJson(
        res,
        200,
        Array.from({ length: ctx.profile.maxBatch }, (_, id) => ({ id, n_ctx: ctx.profile.maxModelLen, is_processing: false })),
      ),
    'POST /slots/:id': (ctx, res, query, slot) => {
      if (slot === null || slot >= ctx.profile.maxBatch) return sendError(res, 400, 'Invalid slot ID');
      if (query.get('action') !== 'erase') return sendError(res, 400, 'Invalid action');
      // llama.cpp counts the tokens a slot held; the simulator's one cache counts in blocks of prefixBlockTokens.
      sendJson(res, 200, { id_slot: slot, n_erased: clear(ctx) * ctx.profile.prefixBlockTokens });
    },
  },
};

const OWN: Readonly<Record<string, HookRoute>> = {
  'POST /sim/reset-prefix-cache': (ctx, res) => sendJson(res, 200, { cleared_blocks: clear(ctx) }),
};

/** The hook route for this request in the dialect played, or undefined. */
export function hookRoute(dialect: SimDialectKind, method: string, url: string): ((ctx: HookContext, res: ServerResponse) => void) | undefined {
  const [path = '/', search = ''] = url.split('?');
  const slot = /^\/slots\/(\d{1,6})$/.exec(path);
  const key = `${method} ${slot ? '/slots/:id' : path}`;
  const found = OWN[key] ?? BY_DIALECT[dialect]?.[key];
  if (found === undefined) return undefined;
  return (ctx, res) => found(ctx, res, new URLSearchParams(search), slot ? Number(slot[1]) : null);
}
