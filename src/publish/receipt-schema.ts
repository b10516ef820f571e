/**
 * The receipt file (`goodput receipt create --out FILE`), versioned by
 * `receiptVersion`. One zod schema is the type and the validator `goodput
 * publish` reads receipts back with. Every number in it is a Fact; the rest is
 * text that says what the numbers are (configurations, workload, basis).
 */
import { z } from 'zod';
import { factSchema } from './fact.js';
import { runSignaturesSchema } from './standing-schema.js';

/** 2: the file carries its evidence by hash, and every number in it is recomputed from that evidence (receipt-file.ts). */
export const RECEIPT_VERSION = 2;

/**
 * The facts a receipt states, by version: 1 (stated by its absence) is every
 * receipt's set; 2 adds each level's tool-call facts (valid share, first
 * tool-call token p50/p95) to a receipt of runs sent with tools; 3 states
 * every receipt's run signatures (`signatures`), from which each fact's
 * standing is shown (standing.ts), and keeps set 2's tool facts; 4 adds, to a
 * receipt of runs that carry them, each level's speculative decoding (the
 * server's acceptance length and rate, our tokens per chunk) and energy per
 * output, input and total token, and keeps set 3; 5 adds, to a receipt of
 * runs that carry them, each level's disaggregated pools (prefill and decode
 * rates, in all and per GPU, and the KV rates) and fleet targets (the least-
 * and most-served target's throughput, the slowest target's TTFT), and keeps
 * set 4. A receipt is recomputed with the set it states, so one made before a
 * set was added still verifies.
 */
export const FACT_SET_VERSION = 5;
/** The set that added tool-call facts, stated only by receipts of runs sent with tools. */
export const TOOL_FACT_SET = 2;
/** The set that added run signatures: every receipt made since states it or a later one. */
export const SIGNED_FACT_SET = 3;
/** The set that added speculative decoding and energy, stated only by receipts of runs that carry them (or a later set's parts). */
export const SERVER_FACT_SET = 4;
export type FactSet = 1 | typeof TOOL_FACT_SET | typeof SIGNED_FACT_SET | typeof SERVER_FACT_SET | typeof FACT_SET_VERSION;

/** What the runs carry that a set adds facts for. */
export interface SetFacts {
  /** A level was sent with tools (set 2). */
  tools: boolean;
  /** A level carries speculative decoding or energy (set 4). */
  serverFacts: boolean;
  /** A level carries a disaggregated server's pools or a fleet's targets (set 5); absent: none. */
  parts?: boolean;
}

/**
 * The set a receipt states, from the set asked for (a recomputation asks for
 * the receipt's; a new receipt for the newest): sets 2, 4 and 5 only where they
 * add facts, so a receipt of runs without tools made before set 3 states set 1,
 * one of runs without speculative decoding or energy states set 3 as before set 4,
 * and one of runs without pools or targets states set 4 or 3 as before set 5.
 */
export function factSetOf(requested: FactSet | undefined, runs: SetFacts): FactSet {
  const asked = requested ?? FACT_SET_VERSION;
  if (asked >= FACT_SET_VERSION && runs.parts === true) return FACT_SET_VERSION;
  if (asked >= SERVER_FACT_SET && runs.serverFacts) return SERVER_FACT_SET;
  if (asked >= SIGNED_FACT_SET) return SIGNED_FACT_SET;
  return asked === TOOL_FACT_SET && runs.tools ? TOOL_FACT_SET : 1;
}

/** The sets a receipt may state (absent is set 1). */
export const STATED_FACT_SETS = [TOOL_FACT_SET, SIGNED_FACT_SET, SERVER_FACT_SET, FACT_SET_VERSION] as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-06-01');

export const configurationSchema = z.object({
  /** "bf16, no quantization, vllm 0.9.1": what ran, from the run's contract and the server's report. */
  identity: z.string(),
  /** The optimization method as the user states it ("FP8 dynamic quantization + tuned batching"). */
  method: z.string(),
  model: z.string().min(1),
  engine: z.string().nullable(),
  measuredAt: day,
  /** sha256 of the run's contract (without its server location), recomputed when the receipt was made. */
  contractHash: z.string().nullable(),
  /** sha256 of the contract's workload, load, decoding, thinking and slo sections. */
  workloadHash: z.string().nullable(),
  toolVersion: z.string(),
  /** What the server said about itself when the run started, one line each; empty when the run did not record it. */
  serverAccount: z.array(z.string()),
});

/**
 * The two servers' configurations as each reported it when its run started,
 * side by side: where each came from (or why none did), one row per setting with
 * both values, and every setting of the baseline below its engine's documented
 * default that holds the engine back. Absent when neither run recorded its
 * server's configuration, so a receipt made before reads as it always did.
 */
export const serverConfigurationSectionSchema = z.object({
  sources: z.object({ baseline: z.string(), optimized: z.string() }),
  rows: z.array(z.object({ setting: z.string(), baseline: z.string().nullable(), optimized: z.string().nullable(), differs: z.boolean() })),
  /** "handicapped baseline: max batch 1 (engine default 256)": shown beside the headlines. */
  handicaps: z.array(z.string()),
});

/** A curve point's identity; its numbers are facts `<configuration>.c<concurrency>.<metric>`. */
export const curvePointSchema = z.object({
  concurrency: z.number().int().positive(),
  invalid: z.boolean(),
  clientBound: z.boolean(),
});

export const headlineSchema = z.object({
  factId: z.string(),
  /** The baseline fact the change is computed against, or null when there is none (the quality score is already relative). */
  baselineFactId: z.string().nullable(),
});

export const barChartSchema = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  /** Facts drawn as bars, baseline first. */
  factIds: z.array(z.string()).min(1),
});

export const receiptSchema = z.object({
  receiptVersion: z.literal(RECEIPT_VERSION),
  factSetVersion: z.union(STATED_FACT_SETS.map((v) => z.literal(v))).optional(),
  /** URL-safe, unique among published receipts: the page is `<id>.html`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lowercase letters, digits and dashes'),
  title: z.string().min(1),
  model: z.string().min(1),
  hardware: z.string().min(1),
  /** The later of the two runs' dates. */
  measuredAt: day,
  /** Either side measured against the goodput simulator: labelled "simulated" wherever the receipt appears. */
  simulated: z.boolean(),
  /** An embeddings or rerank receipt names its endpoint; absent, the receipt is of text generation. */
  modality: z.enum(['embeddings', 'rerank']).optional(),
  /** A text-generation receipt whose requests carried images or audio: what each carried, from the contract ("2 images of 512×512 PNG per request"); absent for text alone. */
  inputs: z.array(z.string().max(200)).max(9).optional(),
  configurations: z.object({ baseline: configurationSchema, optimized: configurationSchema }),
  serverConfiguration: serverConfigurationSectionSchema.optional(),
  workload: z.object({
    /** Equal on both sides, else there is no receipt. */
    hash: z.string().nullable(),
    /** The contract sections that define it, one line each. */
    lines: z.array(z.string()),
  }),
  costBasis: z.object({ text: z.string(), priceAsOf: day.nullable() }),
  facts: z.array(factSchema),
  curves: z.object({ baseline: z.array(curvePointSchema), optimized: z.array(curvePointSchema) }),
  headlines: z.array(headlineSchema).length(5),
  charts: z.array(barChartSchema),
  quality: z
    .object({
      evaluator: z.string(),
      evaluatorId: z.string(),
      scaleNote: z.string(),
      promptSetHash: z.string(),
      referenceTextHash: z.string(),
      line: z.string(),
      /** The score against the baseline itself under the one difference rule, its own noise the floor (core/quality-noise.ts). */
      verdict: z.string(),
    })
    .nullable(),
  limitations: z.array(z.string()),
  generator: z.string(),
  /** Fact set 3 and later: who signed each side's evidence and the quality score, as verified from the evidence; each fact's standing rests on it. */
  signatures: runSignaturesSchema.optional(),
});

export type Receipt = z.infer<typeof receiptSchema>;
export type Configuration = z.infer<typeof configurationSchema>;
export type ServerConfigurationSection = z.infer<typeof serverConfigurationSectionSchema>;
export type CurvePoint = z.infer<typeof curvePointSchema>;
export type Headline = z.infer<typeof headlineSchema>;
export type BarChartDef = z.infer<typeof barChartSchema>;
