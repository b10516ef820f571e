import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/index.js';
import { readPoolingAnswer } from './pooling-answer.js';

const vec = (d: number, x = 0.5) => Array.from({ length: d }, () => x);
const openai = (vectors: unknown[], usage: unknown = { prompt_tokens: 40, total_tokens: 40 }) =>
  JSON.stringify({ object: 'list', data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })), usage });

describe('readPoolingAnswer: embeddings', () => {
  it('takes 16 vectors of one dimension for 16 inputs, with the server usage', () => {
    expect(readPoolingAnswer(openai(Array.from({ length: 16 }, () => vec(8))), 'openai', 16)).toEqual({ ok: true, dimension: 8, inputTokens: 40 });
  });

  it('fails 15 vectors for 16 inputs, naming both counts', () => {
    expect(readPoolingAnswer(openai(Array.from({ length: 15 }, () => vec(8))), 'openai', 16)).toEqual({
      ok: false,
      message: '15 vectors came back for 16 inputs',
    });
  });

  it('fails a NaN written into the JSON, and a null inside a vector, naming where', () => {
    const text = openai([vec(4), vec(4)]).replace('0.5', 'NaN');
    expect(readPoolingAnswer(text, 'openai', 2)).toEqual({ ok: false, message: 'the answer holds NaN, which is not a finite number (and not JSON)' });
    const withNull = readPoolingAnswer(openai([vec(4), [0.1, null, 0.3, 0.4]]), 'openai', 2);
    expect(withNull).toEqual({ ok: false, message: 'the vector of input 1 holds null at position 1, not a finite number' });
    expect(readPoolingAnswer(openai([vec(4), [0.1, '1', 0.3, 0.4]]), 'openai', 2)).toMatchObject({
      ok: false,
      message: expect.stringContaining('holds string at position 1'),
    });
  });

  it('fails mixed dimensions, naming the input and both sizes', () => {
    expect(readPoolingAnswer(openai([vec(8), vec(8), vec(7)]), 'openai', 3)).toEqual({
      ok: false,
      message: 'mixed dimensions: the vector of input 2 has 7 numbers, an earlier one 8',
    });
  });

  it('fails a repeated or out-of-range index even when the count is right', () => {
    const dup = JSON.stringify({
      data: [
        { index: 0, embedding: vec(2) },
        { index: 0, embedding: vec(2) },
      ],
    });
    expect(readPoolingAnswer(dup, 'openai', 2)).toEqual({ ok: false, message: 'input 0 appears twice in the answer' });
    const far = JSON.stringify({
      data: [
        { index: 0, embedding: vec(2) },
        { index: 5, embedding: vec(2) },
      ],
    });
    expect(readPoolingAnswer(far, 'openai', 2)).toEqual({ ok: false, message: 'the answer names input 5, but 2 were sent' });
  });

  it('refuses a vector past the dimension limit, an empty one, and bodies that are not the shape', () => {
    expect(readPoolingAnswer(openai([vec(LIMITS.embeddingDimension.max + 1)]), 'openai', 1)).toMatchObject({
      ok: false,
      message: expect.stringContaining(`above the limit of ${LIMITS.embeddingDimension.max}`),
    });
    expect(readPoolingAnswer(openai([[]]), 'openai', 1)).toEqual({ ok: false, message: 'the vector of input 0 is empty' });
    expect(readPoolingAnswer('<html>oops</html>', 'openai', 1)).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    expect(readPoolingAnswer('[1,2]', 'openai', 1)).toEqual({ ok: false, message: 'the answer is not a JSON object' });
    expect(readPoolingAnswer('{"ok":false,"message":"forged"}', 'openai', 1)).toEqual({ ok: false, message: 'the answer has no "data" array' });
  });

  it("reads Ollama's /api/embed shape and its prompt_eval_count; no usage is null, not zero", () => {
    const text = JSON.stringify({ model: 'm', embeddings: [vec(3), vec(3)], prompt_eval_count: 12 });
    expect(readPoolingAnswer(text, 'ollama', 2)).toEqual({ ok: true, dimension: 3, inputTokens: 12 });
    expect(readPoolingAnswer(openai([vec(3)], null), 'openai', 1)).toEqual({ ok: true, dimension: 3, inputTokens: null });
    expect(readPoolingAnswer(openai([vec(3)], { prompt_tokens: -4 }), 'openai', 1)).toEqual({ ok: true, dimension: 3, inputTokens: null });
  });
});

describe('readPoolingAnswer: rerank', () => {
  const results = (n: number) => Array.from({ length: n }, (_, index) => ({ index, relevance_score: 1 - index / n }));

  it('takes one finite score per document, in any order, with usage', () => {
    const text = JSON.stringify({ results: results(4).reverse(), usage: { total_tokens: 99 } });
    expect(readPoolingAnswer(text, 'rerank', 4)).toEqual({ ok: true, dimension: null, inputTokens: 99 });
    // TEI's bare array with "score".
    expect(
      readPoolingAnswer(
        JSON.stringify([
          { index: 1, score: 0.2 },
          { index: 0, score: 0.9 },
        ]),
        'rerank',
        2,
      ),
    ).toMatchObject({ ok: true });
  });

  it('fails a missing score naming the document, a NaN score, and a document scored twice', () => {
    expect(readPoolingAnswer(JSON.stringify({ results: results(32).filter((r) => r.index !== 7) }), 'rerank', 32)).toEqual({
      ok: false,
      message: 'document 7 got no score',
    });
    const nanScore = JSON.stringify({
      results: [
        { index: 0, relevance_score: 0.4 },
        { index: 1, relevance_score: null },
      ],
    });
    expect(readPoolingAnswer(nanScore, 'rerank', 2)).toEqual({ ok: false, message: 'document 1 has no finite score (null)' });
    const twice = JSON.stringify({
      results: [
        { index: 0, relevance_score: 0.4 },
        { index: 0, relevance_score: 0.3 },
      ],
    });
    expect(readPoolingAnswer(twice, 'rerank', 2)).toEqual({ ok: false, message: 'document 0 appears twice in the answer' });
    expect(readPoolingAnswer(JSON.stringify({ results: results(3) }), 'rerank', 2)).toEqual({ ok: false, message: '3 scores came back for 2 documents' });
  });

  it("reads vLLM's score shape and TEI's bare array by route, and refuses the other shapes by name", () => {
    const score = JSON.stringify({
      object: 'list',
      data: [
        { index: 1, object: 'score', score: 0.2 },
        { index: 0, object: 'score', score: 0.9 },
      ],
      usage: { prompt_tokens: 12 },
    });
    expect(readPoolingAnswer(score, 'score', 2)).toEqual({ ok: true, dimension: null, inputTokens: 12 });
    expect(
      readPoolingAnswer(
        JSON.stringify([
          { index: 1, score: 0.2 },
          { index: 0, score: 0.9 },
        ]),
        'tei-rerank',
        2,
      ),
    ).toEqual({ ok: true, dimension: null, inputTokens: null });
    expect(readPoolingAnswer(JSON.stringify({ results: [{ index: 0, relevance_score: 1 }] }), 'score', 1)).toEqual({
      ok: false,
      message: 'the answer has no "data" array',
    });
    expect(readPoolingAnswer(JSON.stringify({ results: [] }), 'tei-rerank', 1)).toEqual({
      ok: false,
      message: 'the answer is not a JSON array of {index, score}',
    });
    // A score under the Cohere key is not vLLM's score answer.
    expect(readPoolingAnswer(JSON.stringify({ data: [{ index: 0, relevance_score: 1 }] }), 'score', 1)).toEqual({
      ok: false,
      message: 'document 0 has no finite score (missing)',
    });
    expect(readPoolingAnswer(JSON.stringify({ data: [{ score: 1 }] }), 'score', 1)).toEqual({ ok: false, message: 'data[0] has no index' });
  });

  it("reads TEI's /embed: a bare array of vectors, checked like any other", () => {
    expect(readPoolingAnswer(JSON.stringify([vec(4), vec(4)]), 'tei-embed', 2)).toEqual({ ok: true, dimension: 4, inputTokens: null });
    expect(readPoolingAnswer(JSON.stringify([vec(4)]), 'tei-embed', 2)).toEqual({ ok: false, message: '1 vectors came back for 2 inputs' });
    expect(readPoolingAnswer(JSON.stringify({ data: [] }), 'tei-embed', 1)).toEqual({ ok: false, message: 'the answer is not a JSON array of vectors' });
  });
});
