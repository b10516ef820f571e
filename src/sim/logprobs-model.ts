/**
 * The simulator's logprobs model: a deterministic next-token distribution per
 * (seed, context), where the context is every token before the position (a
 * rolling hash of their words). The distribution is a softmax over the output
 * vocabulary (the 64 pseudo-words, each with a leading space) with seeded
 * Gaussian logits of SD {@link BASE_LOGIT_SD}; a token outside that vocabulary (a
 * prompt word being scored) joins it with a logit drawn the same way.
 *
 * `quantizationNoise` adds a second seeded Gaussian, scaled by its SD, to every
 * logit, the way a lower-precision configuration perturbs the original model's
 * logits. Noise 0 gives exactly the base distribution, so two servers that differ
 * only in this knob answer identically at 0 and drift apart as it grows. The
 * generated words do not change with the noise; only the logprobs do.
 */
import { hashInts, hashString53, unitFloat } from './random.js';
import { OUTPUT_WORDS } from './tokenizer.js';

/** SD of the base logits, in logits. */
export const BASE_LOGIT_SD = 2.5;

/** What the model depends on: the profile's seed and quantization noise (SD, logits). */
export interface LogprobsModel {
  seed: number;
  noiseSd: number;
}

/** A next-token distribution, most likely token first. */
export interface Distribution {
  tokens: string[];
  /** Natural-log probabilities, same order as `tokens`; they sum (as probabilities) to 1. */
  logprobs: number[];
}

const word32 = (word: string): number => hashString53(word) % 4294967296;
const VOCAB_WORDS = new Set(OUTPUT_WORDS);
const VOCAB = OUTPUT_WORDS.map((w) => ({ token: ` ${w}`, hash: word32(w) }));

/** Context key before the first token. */
export function startContext(seed: number): number {
  return hashInts(seed, 0x10b9);
}

/** Context key after one more token; the token's leading space is ignored. */
export function nextContext(ctx: number, token: string): number {
  return hashInts(ctx, word32(token.trim()));
}

/** Context key after every word of `words`, from the start. */
export function contextAfter(seed: number, words: readonly string[]): number {
  let ctx = startContext(seed);
  for (const w of words) ctx = nextContext(ctx, w);
  return ctx;
}

/** A standard normal draw determined by `h` (Box–Muller on two hashed uniforms). */
function gaussian(h: number): number {
  const u1 = 1 - unitFloat(h, 1);
  const u2 = unitFloat(h, 2);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

function logit(model: LogprobsModel, ctx: number, wordHash: number): number {
  const h = hashInts(ctx, wordHash);
  const base = BASE_LOGIT_SD * gaussian(hashInts(h, 0xba5e));
  return model.noiseSd === 0 ? base : base + model.noiseSd * gaussian(hashInts(h, 0x0015e));
}

/**
 * The distribution at context `ctx` over the vocabulary, plus `extra` (a token
 * outside the vocabulary, e.g. the prompt word being scored) when it is not in it.
 */
export function distributionAt(model: LogprobsModel, ctx: number, extra?: string): Distribution {
  const entries = VOCAB.map((v) => ({ token: v.token, logit: logit(model, ctx, v.hash) }));
  const word = extra?.trim();
  if (extra !== undefined && word !== undefined && !VOCAB_WORDS.has(word)) {
    entries.push({ token: extra, logit: logit(model, ctx, word32(word)) });
  }
  let max = Number.NEGATIVE_INFINITY;
  for (const e of entries) max = Math.max(max, e.logit);
  let sum = 0;
  for (const e of entries) sum += Math.exp(e.logit - max);
  const logZ = max + Math.log(sum);
  entries.sort((a, b) => b.logit - a.logit);
  return { tokens: entries.map((e) => e.token), logprobs: entries.map((e) => e.logit - logZ) };
}

/** The logprob of `token` in `d` (matched on the word, leading space ignored). */
export function logprobOf(d: Distribution, token: string): number {
  const word = token.trim();
  const i = d.tokens.findIndex((t) => t.trim() === word);
  return i < 0 ? Number.NEGATIVE_INFINITY : (d.logprobs[i] as number);
}
