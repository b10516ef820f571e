/**
 * The simulator's non-generation routes, in vLLM's shapes where vLLM has them:
 * `/health`, `/v1/models`, `/tokenize`, `/metrics`, plus `/sim/gpu`
 * (the live GPU memory model that a fake nvidia-smi reads in tests), `/sim/stats`
 * (the counters of `SimServer.stats()`, for a simulator in another process) and
 * `/sim/config` (the simulator's own account: its version, dialect and profile).
 */
import type { ServerResponse } from 'node:http';
import type { BatchEngine } from './batch-engine.js';
import type { SimDialect } from './dialects/types.js';
import { sendError, sendJson } from './http-util.js';
import { adapterCards, servedModel } from './lora-adapters.js';
import type { SimProfile } from './profile-schema.js';
import { messagesText, promptWords, tokenizeRequestSchema } from './request-schema.js';
import type { SimMetrics } from './sim-metrics.js';
import type { SimStats } from './sim-stats.js';
import { templateWords, tokenId, tokenize } from './tokenizer.js';
import { firstProblem } from './zod-issues.js';

/** What the info routes read. */
export interface InfoContext {
  profile: SimProfile;
  /** The engine played: its `/v1/models` fields (identity routes are the dialect's own). */
  dialect: SimDialect;
  engine: BatchEngine;
  metrics: SimMetrics;
  /** The simulator's version (the default dialect's `/version` reports "goodput-sim <version>"). */
  version: string;
  /** The counters `/sim/stats` answers with. */
  snapshot(): SimStats;
}

/** A route answers from the context and, for POST routes, the parsed JSON body. */
export type InfoRoute = (ctx: InfoContext, res: ServerResponse, body: unknown) => void;

/** GPU memory in use now, MiB: weights + reserved KV tokens × MiB per token (capped at the total). */
export function gpuUsedMiB(ctx: InfoContext): number {
  const { gpu } = ctx.profile;
  return Math.min(gpu.totalMiB, gpu.weightsMiB + ctx.engine.kvReservedTokens * gpu.kvMiBPerToken);
}

const tokenizeRoute: InfoRoute = (ctx, res, raw) => {
  const parsed = tokenizeRequestSchema.safeParse(raw);
  if (!parsed.success) {
    const p = firstProblem(parsed.error);
    return sendError(res, 400, `${p.field}: ${p.problem}`, p.field);
  }
  const { model, prompt, messages } = parsed.data;
  if (model != null && servedModel(ctx.profile, model) === null) {
    return sendError(res, 404, `The model \`${model}\` does not exist.`, 'model');
  }
  const ids = Array.isArray(prompt) && prompt.every((p) => typeof p === 'number') ? prompt : null;
  // Messages go through the chat template, as vLLM's /tokenize renders them.
  const words = prompt !== undefined ? promptWords(prompt) : [...templateWords(ctx.profile.chatTemplateTokens), ...tokenize(messagesText(messages ?? []))];
  const tokens = ids ?? words.map(tokenId);
  sendJson(res, 200, { count: tokens.length, max_model_len: ctx.profile.maxModelLen, tokens, token_strs: null });
};

/** Routes by "METHOD /path". */
export const INFO_ROUTES: Readonly<Record<string, InfoRoute>> = {
  'GET /health': (_ctx, res) => {
    res.writeHead(200, { 'content-length': 0 });
    res.end();
  },
  'GET /v1/models': (ctx, res) =>
    sendJson(res, 200, {
      object: 'list',
      data: [
        {
          id: ctx.profile.model,
          object: 'model',
          created: 0,
          owned_by: 'goodput-sim',
          root: ctx.profile.model,
          parent: null,
          max_model_len: ctx.profile.maxModelLen,
          ...ctx.dialect.modelCard(ctx.profile),
        },
        ...adapterCards(ctx.profile),
      ],
    }),
  'POST /tokenize': tokenizeRoute,
  'GET /sim/gpu': (ctx, res) => sendJson(res, 200, { name: ctx.profile.gpu.name, totalMiB: ctx.profile.gpu.totalMiB, usedMiB: gpuUsedMiB(ctx) }),
  'GET /sim/stats': (ctx, res) => sendJson(res, 200, ctx.snapshot()),
  // The simulator's own account of itself, whatever engine it plays: a run records it, and a receipt says "simulated" from it.
  'GET /sim/config': (ctx, res) => sendJson(res, 200, { simulator: 'goodput-sim', version: ctx.version, dialect: ctx.dialect.kind, profile: ctx.profile }),
  'GET /metrics': (ctx, res) => {
    const text = ctx.metrics.render({
      running: ctx.engine.runningCount,
      waiting: ctx.engine.waitingCount,
      kvUsage: ctx.engine.kvReservedTokens / ctx.profile.kvCacheTokens,
    });
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  },
};
