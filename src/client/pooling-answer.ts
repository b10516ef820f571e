/**
 * Reads an embeddings or rerank answer and checks its contract: as many vectors
 * as inputs, each index once, one dimension, only finite numbers; or every
 * document scored exactly once with a finite score. A broken answer yields the
 * sentence its failed request keeps.
 */
import { LIMITS } from '../core/index.js';
import type { PoolingShape } from './dialects/types.js';
import { excerpt } from './error-text.js';

/** What a good answer held. */
export type PoolingAnswer = { ok: true; inputTokens: number | null; dimension: number | null } | { ok: false; message: string };

type Shape = PoolingShape;

const bad = (message: string): PoolingAnswer => ({ ok: false, message });
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const tokenCount = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER ? v : null);

function parse(text: string): { body: unknown } | PoolingAnswer {
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    // JSON has no NaN or Infinity: a server that writes them sends text no parser takes.
    const literal = /\b(NaN|-?Infinity)\b/.exec(text);
    if (literal) return bad(`the answer holds ${literal[1]}, which is not a finite number (and not JSON)`);
    return bad(`the answer is not JSON (it starts with "${excerpt(text, 60)}")`);
  }
}

/** The first problem of one vector, or its length. */
function vectorProblem(v: unknown, at: string): string | number {
  if (!Array.isArray(v)) return `${at} is not an array of numbers`;
  if (v.length === 0) return `${at} is empty`;
  if (v.length > LIMITS.embeddingDimension.max)
    return `${at} has ${v.length} numbers, above the limit of ${LIMITS.embeddingDimension.max} ${LIMITS.embeddingDimension.what}`;
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x))
      return `${at} holds ${x === null ? 'null' : typeof x === 'number' ? String(x) : typeof x} at position ${i}, not a finite number`;
  }
  return v.length;
}

type EmbedShape = 'openai' | 'ollama' | 'tei-embed';

/** Vectors in answer order, each with the input index it answers. */
function vectorsOf(body: unknown, shape: EmbedShape): Array<{ index: number; vector: unknown }> | string {
  if (shape === 'tei-embed') return Array.isArray(body) ? body.map((vector, index) => ({ index, vector })) : 'the answer is not a JSON array of vectors';
  if (!isObject(body)) return 'the answer is not a JSON object';
  if (shape === 'ollama') {
    if (!Array.isArray(body.embeddings)) return 'the answer has no "embeddings" array';
    return body.embeddings.map((vector, index) => ({ index, vector }));
  }
  if (!Array.isArray(body.data)) return 'the answer has no "data" array';
  const out: Array<{ index: number; vector: unknown }> = [];
  for (const [i, item] of body.data.entries()) {
    if (!isObject(item)) return `data[${i}] is not an object`;
    out.push({ index: typeof item.index === 'number' ? item.index : i, vector: item.embedding });
  }
  return out;
}

/** Each index 0..n-1 exactly once, or the sentence naming the first that is not. */
function indexProblem(indexes: readonly number[], n: number, what: string): string | null {
  const seen = new Uint8Array(n);
  for (const i of indexes) {
    if (!Number.isInteger(i) || i < 0 || i >= n) return `the answer names ${what} ${i}, but ${n} were sent`;
    if (seen[i]) return `${what} ${i} appears twice in the answer`;
    seen[i] = 1;
  }
  const missing = seen.indexOf(0);
  return missing < 0 ? null : `${what} ${missing} got nothing back`;
}

function checkEmbeddings(body: unknown, shape: EmbedShape, items: number): PoolingAnswer {
  const vectors = vectorsOf(body, shape);
  if (typeof vectors === 'string') return bad(vectors);
  if (vectors.length !== items) return bad(`${vectors.length} vectors came back for ${items} inputs`);
  const problem = indexProblem(
    vectors.map((v) => v.index),
    items,
    'input',
  );
  if (problem !== null) return bad(problem);
  let dimension: number | null = null;
  for (const { index, vector } of vectors) {
    const d = vectorProblem(vector, `the vector of input ${index}`);
    if (typeof d === 'string') return bad(d);
    if (dimension !== null && d !== dimension) return bad(`mixed dimensions: the vector of input ${index} has ${d} numbers, an earlier one ${dimension}`);
    dimension = d;
  }
  const b = isObject(body) ? body : {};
  const usage = isObject(b.usage) ? b.usage : {};
  return {
    ok: true,
    dimension,
    inputTokens: shape === 'ollama' ? tokenCount(b.prompt_eval_count) : (tokenCount(usage.prompt_tokens) ?? tokenCount(usage.total_tokens)),
  };
}

/** The scored entries of a rerank answer in its shape, or the sentence saying the list is missing. */
function scoredOf(body: unknown, shape: 'rerank' | 'tei-rerank' | 'score'): unknown[] | string {
  if (shape === 'tei-rerank') return Array.isArray(body) ? body : 'the answer is not a JSON array of {index, score}';
  if (shape === 'score') return isObject(body) && Array.isArray(body.data) ? body.data : 'the answer has no "data" array';
  // Cohere/Jina/vLLM/llama.cpp answer {results:[{index, relevance_score}]}; a bare array is read too.
  const results = Array.isArray(body) ? body : isObject(body) ? body.results : undefined;
  return Array.isArray(results) ? results : 'the answer has no "results" array';
}

function checkRerank(body: unknown, shape: 'rerank' | 'tei-rerank' | 'score', documents: number): PoolingAnswer {
  const results = scoredOf(body, shape);
  if (typeof results === 'string') return bad(results);
  const list = shape === 'score' ? 'data' : 'results';
  if (results.length > documents) return bad(`${results.length} scores came back for ${documents} documents`);
  const indexes: number[] = [];
  for (const [i, r] of results.entries()) {
    if (!isObject(r)) return bad(`${list}[${i}] is not an object`);
    const score = shape === 'rerank' && 'relevance_score' in r ? r.relevance_score : r.score;
    if (typeof r.index !== 'number') return bad(`${list}[${i}] has no index`);
    if (typeof score !== 'number' || !Number.isFinite(score))
      return bad(`document ${r.index} has no finite score (${score === undefined ? 'missing' : excerpt(JSON.stringify(score), 40)})`);
    indexes.push(r.index);
  }
  const problem = indexProblem(indexes, documents, 'document');
  if (problem !== null) return bad(problem.replace('got nothing back', 'got no score'));
  const usage = isObject(body) && isObject(body.usage) ? body.usage : {};
  return { ok: true, dimension: null, inputTokens: tokenCount(usage.prompt_tokens) ?? tokenCount(usage.total_tokens) };
}

/** Checks a 200 answer's text for `items` inputs (embeddings) or documents (rerank). */
export function readPoolingAnswer(text: string, shape: Shape, items: number): PoolingAnswer {
  const parsed = parse(text);
  if (!('body' in parsed)) return parsed;
  const { body } = parsed;
  return shape === 'rerank' || shape === 'tei-rerank' || shape === 'score' ? checkRerank(body, shape, items) : checkEmbeddings(body, shape, items);
}
