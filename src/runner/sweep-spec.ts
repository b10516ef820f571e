/**
 * What a sweep is asked to do: one zod schema for the CLI, the API and tests,
 * yielding the type, the defaults and the messages that name the bad field.
 */
import { z } from 'zod';
import { DEFAULT_CLIENT_BUDGET_MS } from '../core/index.js';

const positiveInt = (what: string) => z.number({ error: `${what} must be a number` }).int(`${what} must be a whole number`).positive(`${what} must be positive`);

export const sweepSpecSchema = z.object({
  url: z.url({ protocol: /^https?$/, error: 'url must be an http(s) URL, e.g. http://127.0.0.1:8000' }),
  /** Never printed, stored or logged. */
  apiKey: z.string().min(1).optional(),
  /** Model id; the first one the server lists when omitted. */
  model: z.string().min(1).optional(),
  endpoint: z.enum(['chat', 'completions']).default('chat'),
  levels: z.array(positiveInt('each level')).min(1, 'give at least one concurrency level').max(64, 'at most 64 levels'),
  outputTokens: positiveInt('output tokens').default(256),
  promptTokens: positiveInt('prompt tokens').default(512),
  /** Requests per level; 'auto' = max(8, 4 × concurrency). */
  requestsPerLevel: z.union([positiveInt('requests per level'), z.literal('auto')]).default('auto'),
  warmup: z.number().int().nonnegative('warm-up must be 0 or more').default(1),
  thinking: z.boolean().default(false),
  forceLength: z.boolean().default(true),
  temperature: z.number().nonnegative().default(0),
  seed: z.number().int().default(42),
  hourlyCostUsd: z.number().nonnegative('hourly cost must not be negative').nullable().default(null),
  baselineRateUsdPer1M: z.number().positive('baseline rate must be positive').nullable().default(null),
  gpuLabel: z.string().min(1).nullable().default(null),
  clientBudgetMs: z.number().positive().default(DEFAULT_CLIENT_BUDGET_MS),
  /** Per-request limits, ms. */
  timeouts: z.object({
    connectMs: z.number().positive().default(10_000),
    headersMs: z.number().positive().default(120_000),
    idleMs: z.number().positive().default(60_000),
    totalMs: z.number().positive().default(600_000),
  }).prefault({}),
  /** The command line that started the sweep, recorded in the result. */
  command: z.string().default(''),
});

export type SweepSpecInput = z.input<typeof sweepSpecSchema>;
export type SweepSpec = z.output<typeof sweepSpecSchema>;

/** Requests a level of concurrency `c` runs. */
export function requestsFor(spec: SweepSpec, c: number): number {
  return spec.requestsPerLevel === 'auto' ? Math.max(8, 4 * c) : spec.requestsPerLevel;
}

/** Levels are measured one at a time in ascending order, whatever order they were given in; duplicates once. */
export function levelOrder(levels: readonly number[]): number[] {
  return [...new Set(levels)].sort((a, b) => a - b);
}
