/**
 * Prompts of exactly their length in the server's own tokens: synthetic ones of
 * `promptTokens`, a replayed trace's, an agent trace's and sessions' of their own
 * lengths (exact-texts.ts). The
 * counter is the run's tokenizer: a tokenizer.json when given, else the
 * server's tokenize route, else words, labelled as approximate. With an exact
 * counter every prompt of the run is built before the first level: one body of
 * exact length after the first request's salt, reused after every other salt
 * and checked with one count each (a salt that tokenizes differently gets its
 * own exact fit). What the server adds on top (BOS, the chat template) is
 * measured from its usage, per level, and reported apart.
 */
import { type LevelResult, type RequestRecord, type TokenizerInfo, type Warning, isOk } from '../core/index.js';
import {
  NO_TOKENIZER_LABEL,
  type PromptItem,
  type PromptSource,
  type TokenCounter,
  WorkloadError,
  approximateCounter,
  exactPrompt,
  loadTokenizerFile,
  serverCounter,
} from '../workload/index.js';
import { SweepError } from './errors.js';
import { blockSourceTokens, exactBlockSource, isBlockSource } from './exact-texts.js';
import { levelSalt } from './level-request.js';
import { type SweepSpec, requestsFor } from './sweep-spec.js';

/** Most prompts built up front; a larger sweep keeps word prompts, labelled with why. */
export const MAX_EXACT_PROMPTS = 20_000;
/** Most prompt tokens of a replay or sessions built up front (levels × the trace's), a bound on memory. */
export const MAX_EXACT_TOKENS = 20_000_000;
/** Counts in flight at once against the server while building. */
const COUNTS_IN_FLIGHT = 8;
/** usage.prompt_tokens further than this share from the label is warned about. */
export const PROMPT_MISMATCH_SHARE = 0.05;

/**
 * `total` texts of exactly `n` tokens by `counter`, the i-th starting with `salt(i)`: one body
 * of exact length after the first salt, reused after every other salt and checked with one
 * count each (a salt that tokenizes differently gets its own exact fit).
 * @throws WorkloadError when no text of `n` tokens can be built; the counter's own errors otherwise.
 */
export async function exactTexts(counter: TokenCounter, n: number, total: number, salt: (i: number) => string, seed: number): Promise<string[]> {
  const first = await exactPrompt(counter, n, salt(0), seed);
  const body = first.slice(salt(0).length);
  const texts: string[] = new Array<string>(total);
  texts[0] = first;
  let next = 1;
  // A few counts in flight at once: each worker takes the next index until none is left.
  const worker = async () => {
    for (let i = next++; i < total; i = next++) {
      const text = salt(i) + body;
      texts[i] = (await counter.count(text)) === n ? text : await exactPrompt(counter, n, salt(i), seed + i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(COUNTS_IN_FLIGHT, total) }, worker));
  return texts;
}

/** The counter the spec asks for; `auto` falls back to words with the reason in the label. */
export async function runCounter(spec: Pick<SweepSpec, 'tokenizer' | 'url' | 'apiKey'>, model: string): Promise<TokenCounter> {
  const t = spec.tokenizer;
  if (t.kind === 'file') {
    try {
      return await loadTokenizerFile(t.path);
    } catch (err) {
      throw new SweepError('bad-input', (err as Error).message);
    }
  }
  const words = approximateCounter();
  if (t.kind === 'approximate') return { ...words, info: { ...words.info, label: 'approximate (words; asked for)' } };
  const server = await serverCounter(spec.url, model, spec.apiKey);
  return server.ok ? server.counter : { ...words, info: { ...words.info, label: `${NO_TOKENIZER_LABEL}: ${server.reason}` } };
}

/** The salt a synthetic prompt starts with: unique per request of the run, so no two share a prefix. */
const saltOf = (runId: string, i: number) => `r${runId}n${i}`;

/** The prompt sources whose lengths are built to the server's tokens before a run. */
export const hasBuiltLengths = (s: PromptSource): boolean => s.kind === 'synthetic' || isBlockSource(s);

/**
 * Every prompt of the run at its exact length by `counter`: synthetic prompts at
 * `spec.promptTokens` (warm-ups included, levels in order) as a prompt list; a
 * trace's, an agent trace's and sessions' at their own lengths, per level (exact-texts.ts).
 * Or the word prompts with a label saying why, when the counter is not exact or the run is too large.
 */
export async function exactPrompts(
  spec: SweepSpec,
  order: readonly number[],
  runId: string,
  counter: TokenCounter,
): Promise<{ prompts: PromptSource; info: TokenizerInfo }> {
  const words = { prompts: spec.prompts, info: counter.info };
  if (!counter.info.exact) return words;
  const approx = (why: string) => ({ prompts: spec.prompts, info: { ...approximateCounter().info, label: `approximate (words; ${why})` } });
  const src = spec.prompts;
  try {
    if (isBlockSource(src)) {
      const tokens = blockSourceTokens(src) * order.length;
      if (tokens > MAX_EXACT_TOKENS)
        return approx(`${tokens} prompt tokens over ${order.length} level(s) are more than the ${MAX_EXACT_TOKENS} built exactly before a run`);
      const salts = order.map((c) => levelSalt({ runId, concurrency: c }));
      return { prompts: await exactBlockSource(src, salts, counter, spec.seed), info: counter.info };
    }
    // A level bounded by time sends as many prompts as its duration allows: there is no count to build ahead.
    if (spec.durationS !== null) return approx('a level bounded by time sends as many prompts as its duration allows, so none is built before the run');
    const total = order.reduce((a, c) => a + spec.warmup + requestsFor(spec, c), 0);
    if (total > MAX_EXACT_PROMPTS) return approx(`${total} prompts are more than the ${MAX_EXACT_PROMPTS} built exactly before a run`);
    const texts = await exactTexts(counter, spec.promptTokens, total, (i) => saltOf(runId, i), spec.seed);
    return { prompts: { kind: 'list', items: texts.map((text): PromptItem => ({ text })) }, info: counter.info };
  } catch (err) {
    if (err instanceof WorkloadError) return approx(`no exact prompt: ${err.message}`);
    throw new SweepError('preflight-refused', `${spec.url}: counting prompt tokens failed: ${(err as Error).message}`);
  }
}

/**
 * Mean prompt tokens sent per request of a level, over the requests the server
 * reported usage for (the same ones its mean is over): synthetic prompts' length,
 * or each traced request's or agent turn's own; null for sessions (a turn carries
 * the model's answers, not built here) and traces with literal prompts.
 */
export function sentTokens(spec: SweepSpec, records: readonly RequestRecord[]): number | null {
  const src = spec.prompts;
  if (src.kind === 'synthetic') return spec.promptTokens;
  if (src.kind !== 'trace' && src.kind !== 'agents') return null;
  if (src.kind === 'trace' && src.requests.some((r) => r.text !== undefined)) return null;
  const counted = records.filter((r) => !r.warmup && isOk(r) && r.promptTokens !== null);
  const lengthOf = (r: RequestRecord) =>
    src.kind === 'trace'
      ? src.requests[(r.seq - spec.warmup) % src.requests.length]?.p
      : r.session
        ? src.sessions[r.session.id]?.turns[r.session.turn]?.p
        : undefined;
  const lengths = counted.flatMap((r) => ((p) => (p === undefined ? [] : [p]))(lengthOf(r)));
  return lengths.length === 0 ? null : lengths.reduce((a, x) => a + x, 0) / lengths.length;
}

/**
 * What the server added to each prompt, tokens: its mean usage.prompt_tokens minus
 * what was sent; null when the prompts were not counted exactly or the server reported no usage.
 */
export function templateTokens(level: LevelResult, sent: number | null, exact: boolean): number | null {
  const served = level.promptTokens.mean;
  if (sent === null || !exact || served === null) return null;
  return Math.round((served - sent) * 100) / 100;
}

/** The level's prompt lengths: sent (the label), and what the server added; unchanged without synthetic prompts. */
export function withPromptLengths(level: LevelResult, sent: number | null, info: TokenizerInfo | null): LevelResult {
  if (info === null) return level;
  return { ...level, promptTokens: { ...level.promptTokens, sent, templateTokens: templateTokens(level, sent, info.exact), countedBy: info.label } };
}

/**
 * A level whose usage.prompt_tokens is more than 5 % from the label when the
 * prompts were not counted by the server (the gap is then not known to be the template).
 */
export function promptLengthWarning(level: LevelResult, sent: number | null, info: TokenizerInfo, levelName: string): Warning | null {
  const served = level.promptTokens.mean;
  if (sent === null || served === null || info.kind === 'server') return null;
  const off = (served - sent) / sent;
  if (Math.abs(off) <= PROMPT_MISMATCH_SHARE) return null;
  const asked = Number.isInteger(sent) ? String(sent) : `mean of ${sent.toFixed(1)}`;
  return {
    code: 'prompt-length-mismatch',
    message:
      `${levelName}: the server counted ${served.toFixed(1)} prompt tokens per request (usage.prompt_tokens), ${off > 0 ? '+' : ''}${(off * 100).toFixed(0)} % from the ${asked} asked for; ` +
      `the prompts were ${info.label}`,
  };
}
