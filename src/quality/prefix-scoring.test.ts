// The perplexity fallback against recorded llama.cpp servers: two test
// servers replay byte-exact answers of llama-server (build b9928) serving
// stories260K with F32 and with Q8_0 weights (fixtures/llama-prefix-scoring-*.txt:
// three growing prefixes of one reference text, max_tokens 1, top 20
// logprobs, then /tokenize with pieces). Scored by prefix at the three recorded
// positions, the composite quality of Q8_0 against F32 is recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeQualityScore, type FirstTokenPair, qualityScoreLine, qualityScoreSchema, recomputeQualityScore } from '../core/index.js';
import { startSimulator } from '../sim/index.js';
import { llamaQualityReplay, llamaTranscript } from '../test-support/llama-replay.js';
import { startServer, type TestServer } from '../test-support/scripted-server.js';
import { firstTokenTop } from './first-token.js';
import { JsonPoster } from './json-poster.js';
import { prefixScore, scoredPositions } from './prefix-scoring.js';
import { scoreQuality } from './score-quality.js';

const TEXT = 'Once upon a time, there was a little girl named Lily.';
// Token 4 is ",", 7 is " a", 13 is " Lily": the recorded prefixes end right before them.
const POSITIONS = [4, 7, 13];

let f32: TestServer;
let q8: TestServer;
beforeAll(async () => {
  f32 = await startServer(llamaQualityReplay('llama-prefix-scoring-f32.txt'));
  q8 = await startServer(llamaQualityReplay('llama-prefix-scoring-q8_0.txt'));
});
afterAll(async () => {
  await Promise.all([f32.close(), q8.close()]);
});

describe('prefix scoring against replayed llama-server answers', () => {
  it("reads each scored token's logprob from the next-token top 20, with the prefixes llama.cpp was sent", async () => {
    const scored = await prefixScore(new JsonPoster('baseline', { baseUrl: f32.url }, 5000), 'stories260K', TEXT, 20, POSITIONS);
    if (typeof scored === 'string') throw new Error(scored);
    expect(scored.tokens).toEqual([',', ' a', ' Lily']);
    expect(scored.tail).toBe(0);
    expect(scored.logprobs[0]).toBeCloseTo(-0.031780876219272614, 12);
    expect(scored.logprobs[1]).toBeCloseTo(-0.0007836312288418412, 12);
    expect(scored.logprobs.every((lp) => lp <= 0)).toBe(true);
    const prompts = f32.requests.filter((q) => q.url.startsWith('/v1/completions')).map((q) => JSON.parse(q.body) as Record<string, unknown>);
    expect(prompts.map((p) => p.prompt)).toEqual(['Once upon a time', 'Once upon a time, there was', 'Once upon a time, there was a little girl named']);
    expect(prompts[0]).toMatchObject({ max_tokens: 1, temperature: 0, logprobs: 20, cache_prompt: false });
  });

  it('records the composite of Q8_0 against F32 by prefix scoring, between 0.95 and 1', async () => {
    const b = new JsonPoster('baseline', { baseUrl: f32.url }, 5000);
    const c = new JsonPoster('candidate', { baseUrl: q8.url }, 5000);
    const prompts = ['Once upon a time', 'Once upon a time, there was', 'Once upon a time, there was a little girl named'];
    const firstToken: FirstTokenPair[] = [];
    for (const p of prompts)
      firstToken.push({
        baseline: await firstTokenTop(b, 'completions', 'stories260K', p, 20),
        candidate: await firstTokenTop(c, 'completions', 'stories260K', p, 20),
      });
    const rb = await prefixScore(b, 'stories260K', TEXT, 20, POSITIONS);
    const rc = await prefixScore(c, 'stories260K', TEXT, 20, POSITIONS);
    if (typeof rb === 'string' || typeof rc === 'string') throw new Error(String(rb) + String(rc));
    const score = composeQualityScore({
      firstToken,
      topLogprobs: 20,
      promptSetHash: 'a'.repeat(64),
      referenceTextHash: 'b'.repeat(64),
      referenceText: { baseline: rb, candidate: rc, prefix: { tailTokens: { baseline: rb.tail, candidate: rc.tail } } },
    });
    expect(score.components.pplDelta).toMatchObject({ provenance: 'measured', method: 'prefix-scoring', tokens: 3, tailTokens: { baseline: 0, candidate: 0 } });
    expect(score.components.kl.value).toBeGreaterThan(0);
    expect(score.composite).toBeGreaterThanOrEqual(0.95);
    expect(score.composite).toBeLessThanOrEqual(1);
    expect(qualityScoreLine(score)).toMatch(/^quality 0\.9\d{3} \(goodput-quality-v1, perplexity by prefix scoring \(0 \+ 0 tokens at the tail bound\); /);
  });

  it('gives a token outside the returned set the tail bound, and counts it', async () => {
    // A server whose top 2 never hold the text's next token ",".
    const server = await startServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if ((req.url ?? '').startsWith('/tokenize')) res.end(llamaTranscript('llama-prefix-scoring-f32.txt').tokenize);
      else
        res.end(
          JSON.stringify({
            choices: [
              {
                logprobs: {
                  content: [
                    {
                      token: 'x',
                      logprob: -0.2,
                      top_logprobs: [
                        { token: 'x', logprob: -0.2 },
                        { token: 'y', logprob: -2.5 },
                      ],
                    },
                  ],
                },
              },
            ],
          }),
        );
    });
    try {
      const scored = await prefixScore(new JsonPoster('candidate', { baseUrl: server.url }, 5000), 'm', TEXT, 2, [4]);
      if (typeof scored === 'string') throw new Error(scored);
      const mass = Math.exp(-0.2) + Math.exp(-2.5);
      expect(scored.tail).toBe(1);
      expect(scored.logprobs[0]).toBeCloseTo(Math.min(-2.5, Math.log(1 - mass)), 12);
    } finally {
      await server.close();
    }
  });

  it('says why when a server has no /tokenize, and spreads positions over a long text', async () => {
    const none = await startServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"no"}');
    });
    try {
      expect(await prefixScore(new JsonPoster('baseline', { baseUrl: none.url }, 5000), 'm', TEXT, 5)).toBe(
        'the baseline server has no /tokenize with pieces (HTTP 404)',
      );
    } finally {
      await none.close();
    }
    expect(scoredPositions(5)).toEqual([1, 2, 3, 4]);
    const spread = scoredPositions(1000, 64);
    expect(spread).toHaveLength(64);
    expect(new Set(spread).size).toBe(64);
    expect(spread.at(-1)).toBe(999);
  });
});

describe('a whole score by prefix scoring, from replayed llama-server answers', () => {
  it('is read back by the score schema, recomputes from its evidence, and states the tail counts once', async () => {
    // Each front answers the quality requests from its recording and forwards the rest (models, engine, account) to a simulator.
    const fast = { prefillBaseMs: 0, prefillMsPerToken: 0, decodeStepMs: 0.2, decodeMsPerExtraSeq: 0 };
    const [simB, simC] = await Promise.all([startSimulator(fast), startSimulator(fast)]);
    const [b, c] = await Promise.all([
      startServer(llamaQualityReplay('llama-prefix-scoring-f32.txt', simB.url)),
      startServer(llamaQualityReplay('llama-prefix-scoring-q8_0.txt', simC.url)),
    ]);
    try {
      const run = await scoreQuality({ baseline: { baseUrl: b.url }, candidate: { baseUrl: c.url }, endpoint: 'completions' });
      expect(run.components.pplDelta).toMatchObject({ provenance: 'measured', method: 'prefix-scoring' });
      const stored = qualityScoreSchema.parse(JSON.parse(JSON.stringify(run)));
      const ref = stored.evidence?.referenceText;
      if (ref === undefined || 'notRecorded' in ref) throw new Error('the reference text was not scored');
      expect(Object.keys(ref.baseline).sort()).toEqual(['logprobs', 'tokens']);
      expect(ref.prefix?.tailTokens).toEqual((stored.components.pplDelta as { tailTokens: unknown }).tailTokens);
      expect(recomputeQualityScore(stored)?.differences).toEqual([]);
      // A side cannot have more tokens at the tail bound than it scored.
      const over = {
        ...stored,
        evidence: { ...stored.evidence, referenceText: { ...ref, prefix: { tailTokens: { baseline: ref.baseline.tokens.length + 1, candidate: 0 } } } },
      };
      expect(qualityScoreSchema.safeParse(over).error?.issues[0]?.path).toEqual(['evidence', 'referenceText', 'prefix', 'tailTokens', 'baseline']);
    } finally {
      await Promise.all([b.close(), c.close(), simB.close(), simC.close()]);
    }
  });
});
