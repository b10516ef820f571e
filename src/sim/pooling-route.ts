/**
 * The simulator's embeddings and rerank routes: OpenAI's `/v1/embeddings`,
 * Ollama's `/api/embed`, TEI's `/embed`, the Cohere/Jina-style `/v1/rerank` and
 * `/rerank` (TEI's `{query, texts}` there too, answered TEI's way), and vLLM's
 * `/score` and `/v1/score` (`{text_1, text_2}` → `data[].score`).
 * One encoder serves requests in arrival order, each for `baseMs` + input
 * tokens × `msPerInputToken` (the profile's `pooling`): the schedule a sweep's
 * input tokens/s is checked against. Vectors are seeded by the input's words.
 * Each answer is counted in /metrics (input tokens, latency, a success).
 */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { sendError, sendJsonText } from './http-util.js';
import type { SimProfile } from './profile-schema.js';
import type { SimMetrics } from './sim-metrics.js';
import { tokenize } from './tokenizer.js';
import { firstProblem } from './zod-issues.js';

/** The encoder's queue: when it is next free, in the server clock's ms; and what it has served. */
export interface PoolingEncoder {
  freeAtMs: number;
  requests: number;
  inputTokens: number;
}

export interface PoolingContext {
  profile: SimProfile;
  now(): number;
  encoder: PoolingEncoder;
  metrics: SimMetrics;
}

type Kind = 'openai' | 'ollama' | 'tei-embed' | 'rerank' | 'score';

const text = z.string().max(1_000_000);
const texts = z.union([text, z.array(text).min(1).max(4096)]);
const embedSchema = z.object({ model: z.string().optional(), input: texts }).passthrough();
const teiEmbedSchema = z.object({ inputs: texts }).passthrough();
const teiRerankSchema = z.object({ query: text, texts: z.array(text).min(1).max(4096) }).passthrough();
const scoreSchema = z.object({ model: z.string().optional(), text_1: text, text_2: z.union([text, z.array(text).min(1).max(4096)]) }).passthrough();
const rerankSchema = z
  .object({
    model: z.string().optional(),
    query: text,
    documents: z.array(text).min(1).max(4096),
    top_n: z.number().int().positive().optional(),
  })
  .passthrough();

/** A deterministic vector of `dim` numbers for `words` tokens, written as JSON text. */
function vectorJson(seed: number, dim: number): string {
  const parts = new Array<string>(dim);
  for (let j = 0; j < dim; j++) parts[j] = Math.sin(seed * 12.9898 + j * 78.233).toFixed(6);
  return `[${parts.join(',')}]`;
}

function seedOf(words: readonly string[]): number {
  let h = 0;
  for (const w of words) for (let i = 0; i < w.length; i++) h = (h * 31 + w.charCodeAt(i)) % 1_000_003;
  return h;
}

type Answer = { json: string; tokens: number } | { error: string; field: string };

function invalid(error: z.ZodError): Answer {
  const f = firstProblem(error);
  return { error: `${f.field}: ${f.problem}`, field: f.field };
}

/** Each document scored against the query, and the tokens the pairs cost (the query read beside every document). */
function scoreAll(query: string, documents: readonly string[]): { scored: Array<{ index: number; score: number }>; tokens: number } {
  const q = tokenize(query).length;
  let tokens = 0;
  const scored = documents.map((d, index) => {
    const words = tokenize(d);
    tokens += q + words.length;
    return { index, score: (Math.sin(seedOf(words)) + 1) / 2 };
  });
  return { scored, tokens };
}

/** A rerank answer: Cohere/Jina `{results}` (a `{query, documents}` body), TEI's bare array (`{query, texts}`), or vLLM's score `{data}`. */
function rankAnswer(kind: 'rerank' | 'score', body: unknown, profile: SimProfile): Answer {
  if (kind === 'score') {
    const p = scoreSchema.safeParse(body);
    if (!p.success) return invalid(p.error);
    const { scored, tokens } = scoreAll(p.data.text_1, typeof p.data.text_2 === 'string' ? [p.data.text_2] : p.data.text_2);
    const data = scored.map((s) => ({ index: s.index, object: 'score', score: s.score }));
    return {
      tokens,
      json: JSON.stringify({
        id: 'score-sim',
        object: 'list',
        created: 0,
        model: profile.model,
        data,
        usage: { prompt_tokens: tokens, total_tokens: tokens, completion_tokens: 0 },
      }),
    };
  }
  const tei = teiRerankSchema.safeParse(body);
  if (tei.success && !('documents' in (body as object))) {
    const { scored, tokens } = scoreAll(tei.data.query, tei.data.texts);
    return { tokens, json: JSON.stringify(scored.sort((a, b) => b.score - a.score)) };
  }
  const p = rerankSchema.safeParse(body);
  if (!p.success) return invalid(p.error);
  const { scored, tokens } = scoreAll(p.data.query, p.data.documents);
  const results = scored
    .sort((a, b) => b.score - a.score)
    .slice(0, p.data.top_n ?? scored.length)
    .map((s) => ({ index: s.index, relevance_score: s.score }));
  return { tokens, json: JSON.stringify({ id: 'rerank-sim', model: profile.model, usage: { prompt_tokens: tokens, total_tokens: tokens }, results }) };
}

/** The answer's JSON text and the input tokens it cost. */
function answer(kind: Kind, body: unknown, profile: SimProfile): Answer {
  if (kind === 'rerank' || kind === 'score') return rankAnswer(kind, body, profile);
  let given: string | string[];
  if (kind === 'tei-embed') {
    const p = teiEmbedSchema.safeParse(body);
    if (!p.success) return invalid(p.error);
    given = p.data.inputs;
  } else {
    const p = embedSchema.safeParse(body);
    if (!p.success) return invalid(p.error);
    given = p.data.input;
  }
  const inputs = typeof given === 'string' ? [given] : given;
  const words = inputs.map((i) => tokenize(i));
  const tokens = words.reduce((a, w) => a + w.length, 0);
  const vectors = words.map((w) => vectorJson(seedOf(w), profile.pooling.dimension));
  const json =
    kind === 'tei-embed'
      ? `[${vectors.join(',')}]`
      : kind === 'ollama'
        ? `{"model":${JSON.stringify(profile.model)},"embeddings":[${vectors.join(',')}],"prompt_eval_count":${tokens}}`
        : `{"object":"list","model":${JSON.stringify(profile.model)},"data":[${vectors.map((v, i) => `{"object":"embedding","index":${i},"embedding":${v}}`).join(',')}],"usage":{"prompt_tokens":${tokens},"total_tokens":${tokens}}}`;
  return { json, tokens };
}

/** Answers one embeddings or rerank request once the encoder has served it. */
function serve(kind: Kind) {
  return (ctx: PoolingContext, res: ServerResponse, body: unknown, arrivalMs: number): void => {
    const model = (body as { model?: unknown } | null)?.model;
    if (typeof model === 'string' && model !== ctx.profile.model) return sendError(res, 404, `The model \`${model}\` does not exist.`, 'model');
    const a = answer(kind, body, ctx.profile);
    if ('error' in a) return sendError(res, 400, a.error, a.field);
    const { baseMs, msPerInputToken } = ctx.profile.pooling;
    const start = Math.max(arrivalMs, ctx.encoder.freeAtMs);
    ctx.encoder.freeAtMs = start + baseMs + a.tokens * msPerInputToken;
    ctx.encoder.requests++;
    ctx.encoder.inputTokens += a.tokens;
    const wait = ctx.encoder.freeAtMs - ctx.now();
    // TEI's own routes count tokens in a header, not the body.
    // Counted in /metrics as vLLM counts a pooling request: its input tokens, its latency from arrival, one success.
    const send = () => {
      if (res.destroyed) return;
      ctx.metrics.promptTokens += a.tokens;
      ctx.metrics.e2e.observe((ctx.now() - arrivalMs) / 1000);
      ctx.metrics.finished('stop');
      sendJsonText(res, 200, a.json, { 'x-compute-tokens': String(a.tokens) });
    };
    if (wait <= 0) send();
    else setTimeout(send, wait);
  };
}

/** The routes by "METHOD /path". */
export const POOLING_ROUTES: Readonly<Record<string, (ctx: PoolingContext, res: ServerResponse, body: unknown, arrivalMs: number) => void>> = {
  'POST /v1/embeddings': serve('openai'),
  'POST /api/embed': serve('ollama'),
  'POST /embed': serve('tei-embed'),
  'POST /v1/rerank': serve('rerank'),
  'POST /rerank': serve('rerank'),
  'POST /score': serve('score'),
  'POST /v1/score': serve('score'),
};
