/**
 * Preflight: is there an OpenAI-compatible server at the target, does it accept
 * our key, and does it serve the model? One GET of `/v1/models`, bounded in time.
 * Every failure is a plain sentence a user can act on. The list is checked
 * here, where it enters, for every caller: each id is what a request names, a
 * run records and a refusal lists, so the list, each id and each parent are
 * bounded by the limits table and hold nothing a terminal would act on.
 */
import { Client } from 'undici';
import { LIMITS, limitMessage, sanitizeForTerminal } from '../core/index.js';
import { readBounded } from './bounded-body.js';
import { excerpt } from './error-text.js';
import { errorCode } from './failure.js';
import { serverFingerprint } from './server-fingerprint.js';
import { resolveTarget, type ResolvedTarget } from './target.js';
import type { Target } from './types.js';
import { overflow } from './response-limits.js';

/**
 * What preflight found. `model` is the one to benchmark (the given one, else the first served);
 * `fingerprint` is serverFingerprint of the `/v1/models` body (null without a data array).
 */
export type PreflightResult =
  | {
      ok: true;
      models: string[];
      model: string;
      fingerprint: string | null;
      /** The base model of each listed id that names one (vLLM lists a LoRA adapter with `parent`); absent where none does. */
      parents?: ReadonlyMap<string, string>;
    }
  | { ok: false; reason: 'unreachable' | 'not-openai' | 'model-missing' | 'auth' | 'response-too-large' | 'bad-model-list'; message: string };

type Failure = Extract<PreflightResult, { ok: false }>;

function fail(reason: Failure['reason'], message: string): Failure {
  return { ok: false, reason, message };
}

function listModels(ids: string[]): string {
  const shown = ids.slice(0, 20).join(', ');
  return ids.length > 20 ? `${shown} and ${ids.length - 20} more` : shown;
}

/** Why a listed id (or parent) cannot be taken, or null. */
function idProblem(id: string, field: string): string | null {
  if (id.length > LIMITS.modelIdChars.max) return limitMessage('modelIdChars', id.length, `${field} length`);
  if (sanitizeForTerminal(id) !== id) return `${field} holds a control character or a line break`;
  return null;
}

/** What in a parsed model list is past a limit or would act on a terminal, in words ("its /v1/models …"), or null. */
function listProblem(ids: readonly string[], parents: ReadonlyMap<string, string>): string | null {
  if (ids.length > LIMITS.servedModels.max) return `its /v1/models ${limitMessage('servedModels', ids.length, 'data')}`;
  for (const [i, id] of ids.entries()) {
    const parent = parents.get(id);
    const problem = idProblem(id, `data[${i}].id`) ?? (parent === undefined ? null : idProblem(parent, `data[${i}].parent`));
    if (problem !== null) return `its /v1/models ${problem}`;
  }
  return null;
}

/** Model ids from a `/v1/models` body, with the base each adapter names as its `parent`, or a sentence naming what is wrong with it. */
function parseModels(text: string, url: string): { ids: string[]; parents: Map<string, string> } | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${url} did not return JSON (it starts with "${excerpt(text, 60)}"); an OpenAI-compatible server returns {"data":[{"id":…}]}. Check the base URL.`;
  }
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  if (!Array.isArray(data)) {
    return `${url} returned JSON without a "data" array, so it does not look like an OpenAI-compatible server. Check the base URL.`;
  }
  const ids: string[] = [];
  const parents = new Map<string, string>();
  for (const [i, entry] of data.entries()) {
    const { id, parent } = typeof entry === 'object' && entry !== null ? (entry as { id?: unknown; parent?: unknown }) : {};
    if (typeof id !== 'string') return `${url} returned a model list whose entry data[${i}] has no string "id".`;
    ids.push(id);
    if (typeof parent === 'string' && parent !== '') parents.set(id, parent);
  }
  return { ids, parents };
}

async function fetchModels(t: ResolvedTarget, timeoutMs: number): Promise<PreflightResult> {
  const url = `${t.displayUrl}/v1/models`;
  const client = new Client(t.origin, { connectTimeout: timeoutMs, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
  try {
    const res = await client.request({
      path: `${t.prefix}/v1/models`,
      method: 'GET',
      headers: { accept: 'application/json', ...t.authHeaders },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const read = await readBounded(res.body);
    if (!read.ok)
      return fail('response-too-large', `${url}: ${overflow('probeResponseBytes', 'the answer').message}; a model list is a few kB. Check the base URL.`);
    const text = read.text;
    if (res.statusCode === 401 || res.statusCode === 403) {
      return fail('auth', `${url} refused the request with HTTP ${res.statusCode}: the API key is missing or wrong. Check the key configured for this server.`);
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      return fail(
        'not-openai',
        `${url} answered HTTP ${res.statusCode} instead of a model list; an OpenAI-compatible server answers 200 there. Check the base URL (for example http://host:8000 or http://host:8000/v1).`,
      );
    }
    const models = parseModels(text, url);
    if (typeof models === 'string') return fail('not-openai', models);
    const { ids, parents } = models;
    const problem = listProblem(ids, parents);
    if (problem !== null) return fail('bad-model-list', problem);
    return { ok: true, models: ids, model: ids[0] ?? '', fingerprint: serverFingerprint(JSON.parse(text)), ...(parents.size > 0 ? { parents } : {}) };
  } catch (err) {
    const timedOut = err instanceof Error && err.name === 'TimeoutError';
    const code = timedOut ? 'ETIMEDOUT' : errorCode(err);
    const why = timedOut || code.includes('TIMEOUT') ? `did not answer within ${timeoutMs} ms` : 'could not be reached';
    // A TLS handshake answered with plain HTTP bytes fails with an SSL/protocol error: say what it means.
    if (url.startsWith('https:') && (code.includes('SSL') || code === 'EPROTO')) {
      return fail('unreachable', `${url} ${why} (${code}): this server speaks plain HTTP: try ${url.replace(/^https:/, 'http:').replace(/\/v1\/models$/, '')}`);
    }
    return fail('unreachable', `${url} ${why} (${code}). Check that the server is running and that the host and port are right.`);
  } finally {
    await client.destroy();
  }
}

/**
 * GETs `{base}/v1/models` within `opts.timeoutMs` (default 5 000 ms) and checks
 * the answer. With `model` undefined, the first served model is chosen.
 * Never rejects; the API key never appears in a message.
 */
export async function preflight(target: Target, model: string | undefined, opts: { timeoutMs?: number } = {}): Promise<PreflightResult> {
  let t: ResolvedTarget;
  try {
    t = resolveTarget(target);
  } catch (err) {
    return fail('unreachable', (err as Error).message);
  }
  // Azure's data plane lists base models, not deployments: the deployment names what is served, and its first request says whether key and name are good.
  const azure = target.azure;
  if (azure !== undefined) return { ok: true, models: [azure.deployment], model: model ?? azure.deployment, fingerprint: null };
  const found = await fetchModels(t, opts.timeoutMs ?? 5_000);
  if (!found.ok) return { ...found, message: t.redact(found.message) };
  if (found.models.length === 0) {
    return fail('model-missing', `${t.displayUrl}/v1/models lists no models; wait until the server has loaded one.`);
  }
  if (model === undefined) return found;
  if (!found.models.includes(model)) {
    return fail(
      'model-missing',
      t.redact(
        `Model "${model}" is not served by ${t.displayUrl}; it serves: ${listModels(found.models)}. Name one of these with --model (a contract's model.name).`,
      ),
    );
  }
  return { ...found, model };
}
