/**
 * An embeddings or rerank sweep's steps before its first level: the model, the
 * route the engine serves for the endpoint (probed with one small request), and
 * the texts every request carries, of exact token length where the counter is
 * exact. sweepPooling (pooling-sweep.ts) calls them in order.
 */
import { LIMITS, POOLING_ENDPOINTS, type PoolingEndpoint, type Warning, sanitizeForTerminal } from '../core/index.js';
import {
  type Dialect,
  type PoolingClient,
  type PoolingPayload,
  type PoolingRoute,
  type Target,
  detectEngine,
  poolingBody,
  poolingRoute,
  poolingRoutesFor,
  preflight,
} from '../client/index.js';
import { syntheticPrompt, type TokenCounter, WorkloadError } from '../workload/index.js';
import { SweepError } from './errors.js';
import type { PoolingSpec } from './pooling-spec.js';
import { closedLoopRequests } from './sweep-spec.js';
import { MAX_EXACT_PROMPTS, exactTexts, runCounter } from './prompt-lengths.js';

/** Most tokens of distinct text built before a run (~60 MB of words); past it texts are reused in turn. */
export const MAX_BUILT_TOKENS = 10_000_000;

/** Every endpoint a dialect serves (pooling ones with their routes), for a refusal that says what the server offers. */
export function endpointsOffered(d: Dialect): string {
  const routes = (e: PoolingEndpoint) =>
    poolingRoutesFor(d.pooling, e)
      .map((r) => r.path)
      .join(' ');
  const pooling = POOLING_ENDPOINTS.filter((e) => routes(e) !== '').map((e) => `${e} (${routes(e)})`);
  const text = d.generatesText === false ? [] : ['chat', 'completions', ...(d.api.paths.responses ? ['responses'] : [])];
  return [...text, ...pooling].join(', ');
}

/**
 * The model to run: preflight's (`/v1/models`); or, for an engine without that
 * route (TEI), the one its own info route names, found by detection.
 */
export async function modelOf(target: Target, spec: PoolingSpec): Promise<string> {
  const pre = await preflight(target, spec.model);
  if (pre.ok) return pre.model;
  if (pre.reason !== 'not-openai') throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  const found = await detectEngine(target);
  const served = found.dialect.servedModel?.(found.replies) ?? null;
  if (served === null) throw new SweepError('preflight-refused', `${spec.url} cannot be benchmarked: ${pre.message}`);
  if (spec.model !== undefined && spec.model !== served)
    throw new SweepError('preflight-refused', `Model "${spec.model}" is not served by ${spec.url}; ${found.dialect.label} serves ${served} (GET /info)`);
  return served;
}

/** The route the engine serves for the spec's endpoint (or the route asked), or a refusal naming what it offers. */
export function routeOf(dialect: Dialect, spec: PoolingSpec): PoolingRoute {
  const route = poolingRoute(dialect.pooling, spec.endpoint, spec.route);
  if (route !== null) return route;
  const served = poolingRoutesFor(dialect.pooling, spec.endpoint).map((r) => r.path);
  const what =
    spec.route === undefined || served.length === 0
      ? `endpoint ${spec.endpoint}: ${dialect.label} does not serve it`
      : `route ${spec.route}: ${dialect.label} does not serve it for ${spec.endpoint}`;
  throw new SweepError('bad-input', `${what}; it offers ${endpointsOffered(dialect)}`);
}

/** One small request before anything is built: a route the server does not serve is refused here, naming what it answered. */
export async function probeRoute(client: PoolingClient, spec: PoolingSpec, model: string, route: PoolingRoute, dialect: Dialect): Promise<void> {
  const payload: PoolingPayload =
    spec.endpoint === 'rerank' ? { endpoint: 'rerank', query: 'probe', documents: ['probe'] } : { endpoint: 'embeddings', inputs: ['probe'] };
  const r = await client.send(model, payload, { seq: -1, concurrency: 1, warmup: true });
  const o = r.outcome;
  const offers = `${dialect.label} offers ${endpointsOffered(dialect)}`;
  if (o.kind === 'connection-error' || o.kind === 'timeout')
    throw new SweepError('preflight-refused', `endpoint ${spec.endpoint}: ${route.path} did not answer: ${o.message}`);
  if (o.kind !== 'http-error') return;
  const reason = sanitizeForTerminal(o.message);
  if ([404, 405, 501].includes(o.status)) {
    throw new SweepError(
      'preflight-refused',
      `endpoint ${spec.endpoint}: ${spec.url} does not serve ${route.path} (HTTP ${o.status}: ${reason}); ${offers}, as far as its engine goes`,
    );
  }
  // Any other refusal of a one-word request (busy and timed-out aside) would refuse every measured request too.
  if (o.status >= 400 && o.status < 500 && o.status !== 408 && o.status !== 429) {
    const hint = dialect.pooling.refusalHints?.find((h) => h.when.test(o.message))?.hint;
    throw new SweepError(
      'preflight-refused',
      `endpoint ${spec.endpoint}: the server answered ${o.status} on ${route.path}: ${reason}${hint === undefined ? '' : ` — ${hint}`}; nothing was measured`,
    );
  }
}

/** The texts the run sends, `n` tokens each, exact when the counter is; or words, with the reason. */
async function buildTexts(
  counter: TokenCounter,
  n: number,
  total: number,
  perRequest: number,
  salt: string,
  seed: number,
  warn: (w: Warning) => void,
): Promise<{ texts: string[]; exact: boolean; label: string }> {
  // Past the cap (a count and a token budget, at least one request's worth) the texts are reused in turn; said in a warning.
  const built = Math.min(total, MAX_EXACT_PROMPTS, Math.max(perRequest, Math.floor(MAX_BUILT_TOKENS / n)));
  if (built < total)
    warn({ code: 'inputs-reused', message: `${total} texts of ${n} tokens are more than the ${built} built before a run: they are reused in turn` });
  const words = (why: string | null) => {
    if (why !== null) warn({ code: 'prompt-length-approximate', message: `input lengths are approximate (words): ${why}` });
    return {
      texts: Array.from({ length: built }, (_, i) => syntheticPrompt(n, seed + i, `${salt}${i}`)),
      exact: false,
      label: why === null ? counter.info.label : `approximate (words; ${why})`,
    };
  };
  if (!counter.info.exact) return words(counter.info.label);
  try {
    return { texts: await exactTexts(counter, n, built, (i) => `${salt}${i}`, seed), exact: true, label: counter.info.label };
  } catch (err) {
    if (err instanceof WorkloadError) return words(`no exact text of ${n} tokens: ${err.message}`);
    throw new SweepError('preflight-refused', `counting input tokens failed: ${(err as Error).message}`);
  }
}

/** What every request of the run carries, and how its tokens were counted. */
export interface PoolingInputs {
  /** Request `req`'s payload (warm-ups included, in send order over the whole run). */
  payloadAt(req: number): PoolingPayload;
  tokenizer: { exact: boolean; label: string };
  /** Tokens a request carries by our count (rerank: the query beside each document, as cross-encoders read it). */
  sentTokens: number;
}

/**
 * Builds the run's texts (the items, and rerank's queries), then checks our own
 * limit on what we send on the run's first request, before any level.
 */
export async function poolingInputs(
  spec: PoolingSpec,
  model: string,
  route: PoolingRoute,
  order: readonly number[],
  runId: string,
  warn: (w: Warning) => void,
): Promise<PoolingInputs> {
  const requestsOf = (c: number) => spec.warmup + closedLoopRequests(spec, c);
  const totalRequests = order.reduce((a, c) => a + requestsOf(c), 0);
  const counter = await runCounter(spec, model);
  const items = await buildTexts(counter, spec.itemTokens, totalRequests * spec.itemsPerRequest, spec.itemsPerRequest, `r${runId}i`, spec.seed, warn);
  const queries = spec.endpoint === 'rerank' ? await buildTexts(counter, spec.queryTokens, totalRequests, 1, `r${runId}q`, spec.seed + 7, warn) : null;
  const payloadAt = (req: number): PoolingPayload => {
    const texts = Array.from({ length: spec.itemsPerRequest }, (_, k) => items.texts[(req * spec.itemsPerRequest + k) % items.texts.length] as string);
    return queries === null
      ? { endpoint: 'embeddings', inputs: texts }
      : { endpoint: 'rerank', query: queries.texts[req % queries.texts.length] as string, documents: texts };
  };
  const bodyBytes = Buffer.byteLength(poolingBody(model, payloadAt(0), route.shape));
  if (bodyBytes > LIMITS.requestBodyBytes.max) {
    throw new SweepError(
      'bad-input',
      `one request would be ${bodyBytes} bytes, above the limit of ${LIMITS.requestBodyBytes.max} ${LIMITS.requestBodyBytes.what}: lower --prompt-tokens or ${spec.endpoint === 'rerank' ? '--documents' : '--batch-size'}`,
    );
  }
  return {
    payloadAt,
    tokenizer: { exact: items.exact, label: items.label },
    sentTokens: spec.itemsPerRequest * (spec.itemTokens + (spec.endpoint === 'rerank' ? spec.queryTokens : 0)),
  };
}
