/**
 * sweepPooling: an embeddings or rerank sweep, reached through runSweep
 * (run-kinds.ts). Preflight (the server, the model, the engine, and one small
 * request proving the route is served), then
 * inputs of exact token length, then each concurrency level ascending — warm-up,
 * measured requests closed-loop — summarised from its records.
 */
import { randomBytes } from 'node:crypto';
import {
  LIMITS, POOLING_ENDPOINTS, type PoolingEndpoint, type PoolingLevel, type PoolingRecord, type PoolingResult, type Warning, SCHEMA_VERSION,
  poolingCapacity, poolingClientLoad, poolingLevel, poolingPeak, sanitizeForTerminal,
} from '../core/index.js';
import {
  type Clock, type Dialect, type PoolingClient, type PoolingPayload, type PoolingRoute, type Target, createPoolingClient, detectEngine, monotonicNs, poolingBody,
  poolingRoute, poolingRoutesFor, preflight,
} from '../client/index.js';
import { threadsFor } from './client-threads.js';
import { poolingSharePlans, runPoolingShare, type PoolingShareRun } from './pooling-share.js';
import { startPoolingThreads, type PoolingThreads } from './pooling-threads.js';
import { syntheticPrompt, type TokenCounter, WorkloadError } from '../workload/index.js';
import { resolveEngine } from './engine-setup.js';
import { SweepError } from './errors.js';
import { type PoolingSpec, type PoolingSpecInput, poolingRequestsFor, poolingSpecSchema } from './pooling-spec.js';
import { MAX_EXACT_PROMPTS, PROMPT_MISMATCH_SHARE, exactTexts, runCounter } from './prompt-lengths.js';
import { levelOrder } from './sweep-spec.js';
import type { SweepHooks } from './sweep-events.js';
import { TOOL_VERSION } from './version.js';

/** What a pooling sweep takes besides its spec: the hooks every kind offers, and a clock (tests). */
export interface PoolingDeps extends SweepHooks<'pooling'> {
  clock?: Clock;
}

/** Most tokens of distinct text built before a run (~60 MB of words); past it texts are reused in turn. */
export const MAX_BUILT_TOKENS = 10_000_000;

/** Every endpoint a dialect serves (pooling ones with their routes), for a refusal that says what the server offers. */
export function endpointsOffered(d: Dialect): string {
  const routes = (e: PoolingEndpoint) => poolingRoutesFor(d.pooling, e).map((r) => r.path).join(' ');
  const pooling = POOLING_ENDPOINTS.filter((e) => routes(e) !== '').map((e) => `${e} (${routes(e)})`);
  const text = d.generatesText === false ? [] : ['chat', 'completions', ...(d.api.paths.responses ? ['responses'] : [])];
  return [...text, ...pooling].join(', ');
}

/**
 * The model to run: preflight's (`/v1/models`); or, for an engine without that
 * route (TEI), the one its own info route names, found by detection.
 */
async function modelOf(target: Target, spec: PoolingSpec): Promise<string> {
  const pre = await preflight(target, spec.model);
  if (pre.ok) return pre.model;
  if (pre.reason !== 'not-openai') throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  const found = await detectEngine(target);
  const served = found.dialect.servedModel?.(found.replies) ?? null;
  if (served === null) throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  if (spec.model !== undefined && spec.model !== served) throw new SweepError('preflight-refused', `Model "${spec.model}" is not served by ${spec.url}; ${found.dialect.label} serves ${served} (GET /info)`);
  return served;
}

function parseSpec(input: PoolingSpecInput): PoolingSpec {
  const parsed = poolingSpecSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new SweepError('bad-input', `${issue?.path.join('.') || 'spec'}: ${issue?.message ?? 'invalid'}`);
}

/** One small request before anything is built: a route the server does not serve is refused here, naming what it answered. */
async function probeRoute(client: PoolingClient, spec: PoolingSpec, model: string, route: PoolingRoute, dialect: Dialect): Promise<void> {
  const payload: PoolingPayload = spec.endpoint === 'rerank' ? { endpoint: 'rerank', query: 'probe', documents: ['probe'] } : { endpoint: 'embeddings', inputs: ['probe'] };
  const r = await client.send(model, payload, { seq: -1, concurrency: 1, warmup: true });
  const o = r.outcome;
  const offers = `${dialect.label} offers ${endpointsOffered(dialect)}`;
  if (o.kind === 'connection-error' || o.kind === 'timeout') throw new SweepError('preflight-refused', `endpoint ${spec.endpoint}: ${route.path} did not answer: ${o.message}`);
  if (o.kind !== 'http-error') return;
  const reason = sanitizeForTerminal(o.message);
  if ([404, 405, 501].includes(o.status)) {
    throw new SweepError('preflight-refused', `endpoint ${spec.endpoint}: ${spec.url} does not serve ${route.path} (HTTP ${o.status}: ${reason}); ${offers}, as far as its engine goes`);
  }
  // Any other refusal of a one-word request (busy and timed-out aside) would refuse every measured request too.
  if (o.status >= 400 && o.status < 500 && o.status !== 408 && o.status !== 429) {
    const hint = dialect.pooling.refusalHints?.find((h) => h.when.test(o.message))?.hint;
    throw new SweepError('preflight-refused', `endpoint ${spec.endpoint}: the server answered ${o.status} on ${route.path}: ${reason}${hint === undefined ? '' : ` — ${hint}`}; nothing was measured`);
  }
}

/** The texts the run sends, `n` tokens each, exact when the counter is; or words, with the reason. */
async function buildTexts(counter: TokenCounter, n: number, total: number, perRequest: number, salt: string, seed: number, warn: (w: Warning) => void): Promise<{ texts: string[]; exact: boolean; label: string }> {
  // Past the cap (a count and a token budget, at least one request's worth) the texts are reused in turn; said in a warning.
  const built = Math.min(total, MAX_EXACT_PROMPTS, Math.max(perRequest, Math.floor(MAX_BUILT_TOKENS / n)));
  if (built < total) warn({ code: 'inputs-reused', message: `${total} texts of ${n} tokens are more than the ${built} built before a run: they are reused in turn` });
  const words = (why: string | null) => {
    if (why !== null) warn({ code: 'prompt-length-approximate', message: `input lengths are approximate (words): ${why}` });
    return { texts: Array.from({ length: built }, (_, i) => syntheticPrompt(n, seed + i, `${salt}${i}`)), exact: false, label: why === null ? counter.info.label : `approximate (words; ${why})` };
  };
  if (!counter.info.exact) return words(counter.info.label);
  try {
    return { texts: await exactTexts(counter, n, built, (i) => `${salt}${i}`, seed), exact: true, label: counter.info.label };
  } catch (err) {
    if (err instanceof WorkloadError) return words(`no exact text of ${n} tokens: ${err.message}`);
    throw new SweepError('preflight-refused', `counting input tokens failed: ${(err as Error).message}`);
  }
}

/** An embeddings or rerank sweep: the pooling kind's driver (run-kinds.ts); callers go through runSweep. */
export async function sweepPooling(input: PoolingSpecInput, deps: PoolingDeps = {}): Promise<PoolingResult> {
  const spec = parseSpec(input);
  const emit = deps.onEvent ?? (() => {});
  const clock = deps.clock ?? monotonicNs;
  const signal = deps.signal ?? new AbortController().signal;
  const target = { baseUrl: spec.url, apiKey: spec.apiKey };
  const warnings: Warning[] = [];
  const warn = (w: Warning) => { warnings.push(w); emit({ kind: 'warning', warning: w }); };

  const pre = { model: await modelOf(target, spec) };
  const engine = await resolveEngine(target, spec.engine, { model: pre.model, endpoint: 'chat', thinking: false, forceLength: false });
  const { dialect } = engine;
  const route = poolingRoute(dialect.pooling, spec.endpoint, spec.route);
  if (route === null) {
    const served = poolingRoutesFor(dialect.pooling, spec.endpoint).map((r) => r.path);
    const what = spec.route === undefined || served.length === 0 ? `endpoint ${spec.endpoint}: ${dialect.label} does not serve it` : `route ${spec.route}: ${dialect.label} does not serve it for ${spec.endpoint}`;
    throw new SweepError('bad-input', `${what}; it offers ${endpointsOffered(dialect)}`);
  }
  const order = levelOrder(spec.levels);
  const most = order[order.length - 1] as number;
  // Client threads as a text sweep has them; one loop when the clock is injected (tests) or one stream is the most.
  const threadCount = deps.clock ? 1 : threadsFor(spec.clientThreads, most);
  const client = createPoolingClient(target, route, { connections: threadCount > 1 ? 1 : most, clock, timeoutMs: spec.timeoutMs, idleMs: spec.idleMs });
  // Started for the first level that is split, not before: a thread loading its modules would take the CPU from a level on one loop.
  let threads: PoolingThreads | null = null;
  const startThreads = () => (threads ??= startPoolingThreads(threadCount, { target, route, model: pre.model, timeoutMs: spec.timeoutMs, idleMs: spec.idleMs }, most));
  const startedAt = new Date().toISOString();
  const levels: PoolingLevel[] = [];
  let status: PoolingResult['run']['status'] = 'complete';
  let stopReason: string | null = null;
  let tokenizer = { exact: false, label: '' };
  try {
    await probeRoute(client, spec, pre.model, route, dialect);
    emit({ kind: 'preflight', model: pre.model, path: route.path, engine: dialect.label });

    const requestsOf = (c: number) => spec.warmup + poolingRequestsFor(spec, c);
    const totalRequests = order.reduce((a, c) => a + requestsOf(c), 0);
    const runId = randomBytes(4).toString('hex');
    const counter = await runCounter(spec, pre.model);
    const items = await buildTexts(counter, spec.itemTokens, totalRequests * spec.itemsPerRequest, spec.itemsPerRequest, `r${runId}i`, spec.seed, warn);
    const queries = spec.endpoint === 'rerank' ? await buildTexts(counter, spec.queryTokens, totalRequests, 1, `r${runId}q`, spec.seed + 7, warn) : null;
    tokenizer = { exact: items.exact, label: items.label };
    let cursor = 0;
    const payloadAt = (req: number): PoolingPayload => {
      const texts = Array.from({ length: spec.itemsPerRequest }, (_, k) => items.texts[(req * spec.itemsPerRequest + k) % items.texts.length] as string);
      return queries === null ? { endpoint: 'embeddings', inputs: texts } : { endpoint: 'rerank', query: queries.texts[req % queries.texts.length] as string, documents: texts };
    };

    // Our own limit on what we send, checked on the run's first request before any level.
    const bodyBytes = Buffer.byteLength(poolingBody(pre.model, payloadAt(0), route.shape));
    if (bodyBytes > LIMITS.requestBodyBytes.max) {
      throw new SweepError('bad-input', `one request would be ${bodyBytes} bytes, above the limit of ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}: lower --prompt-tokens or ${spec.endpoint === 'rerank' ? '--documents' : '--batch-size'}`);
    }

    // Tokens a request carries by our count (rerank: the query beside each document, as cross-encoders read it).
    const sentTokens = spec.itemsPerRequest * (spec.itemTokens + (spec.endpoint === 'rerank' ? spec.queryTokens : 0));
    let lengthsChecked = false;

    for (const [index, c] of order.entries()) {
      if (signal.aborted) break;
      await deps.beforeLevel?.();
      const requests = poolingRequestsFor(spec, c);
      const shares = threadsFor(threadCount, Math.min(c, requests));
      emit({ kind: 'level-start', concurrency: c, index, total: order.length, requests, threads: shares });
      let done = 0;
      let failed = 0;
      const onRecord = (r: PoolingRecord) => {
        if (!r.warmup) {
          done++;
          if (r.outcome.kind !== 'ok') failed++;
        }
        emit({ kind: 'request', concurrency: c, done, failed, requests, warmup: r.warmup });
      };
      const base = cursor;
      cursor += spec.warmup + requests;
      const plans = poolingSharePlans(c, spec.warmup, requests, shares, (k) => payloadAt(base + k));
      const runs: Array<PoolingShareRun & { label: string }> = shares > 1
        ? await startThreads().runLevel(c, plans, signal, onRecord)
        : [{ label: 'the client', ...(await runPoolingShare({ client, model: pre.model, concurrency: c, plan: plans[0] as (typeof plans)[number], clock, signal, onRecord })) }];
      const records = runs.flatMap((r) => r.records).sort((a, b) => (a.warmup === b.warmup ? a.seq - b.seq : a.warmup ? -1 : 1));
      if (signal.aborted) break;
      const measured = records.filter((r) => !r.warmup);
      if (measured.length > 0 && measured.every((r) => r.outcome.kind === 'connection-error')) {
        status = 'server-failed';
        const last = measured[measured.length - 1]?.outcome;
        stopReason = `the server stopped answering during the concurrency-${c} level: ${last?.kind === 'connection-error' ? last.message : ''}. ${levels.length} level(s) complete`;
        break;
      }
      // A lagging client would time the server late: the level is judged on its worst share's loop, and is then no peak.
      const level = poolingLevel(c, records, spec.hourlyCostUsd, spec.latencySlo, poolingClientLoad(runs, spec.clientBudgetMs));
      if (level.clientBound?.bound === true) warn({ code: 'client-bound', message: `concurrency ${c}: ${level.clientBound.reason}` });
      levels.push(level);
      emit({ kind: 'level-end', level, records });
      await deps.afterLevel?.(level, records);
      const served = level.inputTokensPerRequest;
      if (!lengthsChecked && served !== null && Math.abs(served / sentTokens - 1) > PROMPT_MISMATCH_SHARE) {
        lengthsChecked = true;
        warn({
          code: 'input-length-mismatch',
          message: `the server counted ${served.toFixed(1)} input tokens per request (its usage), ${sentTokens} sent by ${tokenizer.label}: ` +
            `${((served - sentTokens) / (spec.itemsPerRequest)).toFixed(1)} per ${spec.endpoint === 'rerank' ? 'document' : 'input'} (special tokens, a template, or a different tokenizer); input tokens/s is the server's count`,
        });
      }
      if (level.failed > 0) warn({ code: 'failed-requests', message: `concurrency ${c}: ${level.failed} of ${level.requests} requests failed (${level.failures.map((f) => `${f.count}× ${f.reason}`).join('; ')})` });
    }
    if (signal.aborted && status === 'complete') {
      status = 'stopped';
      stopReason = `stopped by the user; ${levels.length} level(s) complete`;
    }
  } finally {
    await Promise.all([client.close(), (threads as PoolingThreads | null)?.close()]);
  }
  return {
    schemaVersion: SCHEMA_VERSION,
    run: {
      url: spec.url, model: pre.model, endpoint: spec.endpoint, path: route.path,
      engine: { name: dialect.engine, version: engine.version, dialect: dialect.kind, detection: engine.source },
      itemsPerRequest: spec.itemsPerRequest, itemTokens: spec.itemTokens, queryTokens: spec.endpoint === 'rerank' ? spec.queryTokens : null,
      tokenizer, levelsRequested: spec.levels, requestsPerLevel: spec.requestsPerLevel, warmupPerLevel: spec.warmup,
      hourlyCostUsd: spec.hourlyCostUsd, seed: spec.seed, command: spec.command, startedAt, endedAt: new Date().toISOString(),
      status, stopReason, toolVersion: TOOL_VERSION, latencySlo: spec.latencySlo,
    },
    warnings,
    levels,
    peak: poolingPeak(levels),
    capacity: spec.latencySlo === null ? null : poolingCapacity(levels, spec.latencySlo),
  };
}
