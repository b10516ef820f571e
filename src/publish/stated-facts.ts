/**
 * The facts fact set 4 adds to each level that carries them: the server's
 * speculative decoding (acceptance length, the headline, and rate) beside our
 * tokens per chunk, and the energy per output, input and total token over the
 * measured window. Each carries a note saying where it came from (the
 * counters' arithmetic or which gauge, whether ours agrees; the energy's
 * window, readings, interval, coverage and method) or why it has none ("energy
 * not valid: …"). The server's counters and the GPU readings are in the
 * result, not its records: those facts stand on the run's signature or the
 * publisher's word (standing.ts).
 */
import { type LevelResult, SPEC_DECODE_TOLERANCE } from '../core/index.js';
import type { MetricKey } from '../web/index.js';
import type { CheckedRun } from './run-pair.js';
import { POOL_STATED, partsFactNote } from './parts-facts.js';

/** Fact set 4 adds these to each level whose server reported speculative decoding: its acceptance length and rate beside our tokens per chunk. */
export const SPEC_DECODE_METRICS = ['acceptanceLength', 'acceptanceRate', 'chunkTokens'] as const satisfies readonly MetricKey[];

/** Fact set 4 adds these to each level a GPU source read: joules per token over the measured window. */
export const ENERGY_METRICS = ['joulesPerOutputToken', 'joulesPerInputToken', 'joulesPerTotalToken'] as const satisfies readonly MetricKey[];

/**
 * The facts a result states that its records cannot give: the server's
 * counters and gauges, and the GPU source's readings. Only the arithmetic on
 * them is recomputed (runner's levelFromRecords), so each stands on the run's
 * signature or the publisher's word (standing.ts).
 */
export const STATED_METRICS: Readonly<Record<string, string>> = {
  acceptanceLength: "the server's speculative-decoding counters or gauge",
  acceptanceRate: "the server's speculative-decoding counters",
  joulesPerOutputToken: "the GPU source's power or energy readings",
  joulesPerInputToken: "the GPU source's power or energy readings",
  joulesPerTotalToken: "the GPU source's power or energy readings",
  ...POOL_STATED,
};

/** How a fact's note begins when its level's energy is not valid; the reason follows. */
export const ENERGY_NOT_VALID = 'energy not valid: ';

const ENERGY_NO_VALUE = "the server did not report every request's prompt tokens";

/** The runs carry speculative decoding or energy: a receipt of them states fact set 4. */
export const carriesServerFacts = (result: CheckedRun['result']): boolean => result.levels.some((l) => l.specDecode !== undefined || l.energy !== undefined);

const two = (x: number) => x.toFixed(2);

/** Where a level's speculative decoding comes from and whether our chunks agree, in words. */
function specDecodeNote(s: NonNullable<LevelResult['specDecode']>): string {
  const from =
    s.counters !== null
      ? `vLLM's counters over the level: 1 + ${s.counters.acceptedTokens} accepted ÷ ${s.counters.drafts} drafts`
      : s.source === 'trtllm'
        ? "TensorRT-LLM's acceptance-length gauge of its last iteration, read after the level (not the level's window); the rate from its counters over the level"
        : "SGLang's spec_accept_length gauge, read after the level (its last decode-log interval, not the level's window)";
  const ours =
    s.client === null
      ? 'no streamed chunk to compare with'
      : `our ${two(s.client.tokensPerChunk)} tokens per chunk ${s.agrees === true ? 'agree within' : 'disagree by more than'} ±${SPEC_DECODE_TOLERANCE.relative * 100} %`;
  return `${from}; ${ours}`;
}

/** How a level's energy was read, or why it is not valid. */
function energyNote(e: NonNullable<LevelResult['energy']>): string {
  if (!e.valid) return `${ENERGY_NOT_VALID}${e.reason ?? 'no reason stated'}`;
  const every = e.intervalMs === null ? '' : ` every ${e.intervalMs.toFixed(0)} ms`;
  const coverage = e.coverage === null ? '' : `, coverage ${(e.coverage * 100).toFixed(0)} %`;
  const method = e.method === 'counter' ? 'its energy counter' : 'trapezoids over its power readings';
  return `${e.source} over the measured window (${(e.windowMs / 1000).toFixed(2)} s): ${e.samples} readings${every}, ${e.outside} left out${coverage}, by ${method}`;
}

/** A level's own words on a fact of set 4 or 5: where its value came from, or why it has none (undefined: the metric needs none, or the common reason does). */
export function statedFactNote(key: MetricKey, l: LevelResult, value: number | null): string | undefined {
  const parts = partsFactNote(key, l, value);
  if (parts !== undefined) return parts;
  if ((SPEC_DECODE_METRICS as readonly string[]).includes(key) && l.specDecode !== undefined && value !== null) {
    if (key === 'chunkTokens')
      return `over ${l.specDecode.client?.chunks ?? 0} chunks${l.specDecode.client?.exact === false ? '; the server did not say how many tokens each chunk carried, so they are spread evenly' : ''}`;
    return specDecodeNote(l.specDecode);
  }
  if ((ENERGY_METRICS as readonly string[]).includes(key) && l.energy !== undefined) {
    if (!l.energy.valid) return energyNote(l.energy);
    if (value !== null) return energyNote(l.energy);
    return key === 'joulesPerOutputToken' ? undefined : ENERGY_NO_VALUE;
  }
  if (key === 'acceptanceRate' && l.specDecode !== undefined)
    return l.specDecode.counters === null
      ? "the engine's gauge gives no rate (SGLang's spec_accept_length)"
      : 'the counters show no draft tokens over the level';
  if (key === 'chunkTokens') return 'no successful request of the level streamed more than one chunk';
  return undefined;
}
