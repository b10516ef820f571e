/**
 * What a structured-output level adds: how many answers sent with the JSON
 * schema parse and validate, and what the schema costs — TTFT, TPOT and e2e of
 * the requests sent with it against the plain control requests of the same
 * level (same prompts, same load, interleaved), as medians and their difference.
 */
import { z } from 'zod';
import { isOk, type RequestRecord } from './record.js';
import { percentiles } from './percentiles.js';
import { e2eMs, tpotMs, ttftMs } from './request-metrics.js';

const cost = z.object({ schemaP50: z.number(), controlP50: z.number(), deltaPct: z.number().nullable() }).nullable();

export const structuredSummarySchema = z.object({
  /** Successful measured requests sent with the schema, and their verdicts. */
  requests: z.number().int().nonnegative(),
  valid: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  unparsed: z.number().int().nonnegative(),
  /** valid / requests; null without requests. */
  validRate: z.number().min(0).max(1).nullable(),
  /** Successful measured control requests (sent without the schema). */
  controls: z.number().int().nonnegative(),
  /** p50 with the schema, p50 of the controls, and (schema − control) / control in %; null without both. */
  cost: z.object({ ttftMs: cost, tpotMs: cost, e2eMs: cost }),
});
export type StructuredSummary = z.infer<typeof structuredSummarySchema>;

function compare(a: readonly RequestRecord[], b: readonly RequestRecord[], f: (r: RequestRecord) => number | null): z.infer<typeof cost> {
  const values = (rs: readonly RequestRecord[]) => rs.map(f).filter((v): v is number => v !== null);
  const x = percentiles(values(a), [50]);
  const y = percentiles(values(b), [50]);
  if (x === null || y === null) return null;
  return { schemaP50: x.p50, controlP50: y.p50, deltaPct: y.p50 > 0 ? ((x.p50 - y.p50) / y.p50) * 100 : null };
}

/** The structured-output figures of a level's records; null when none carries a schema verdict. */
export function summarizeStructured(records: readonly RequestRecord[]): StructuredSummary | null {
  if (!records.some((r) => r.structured !== undefined)) return null;
  const ok = records.filter((r) => !r.warmup && isOk(r) && r.structured !== undefined);
  const withSchema = ok.filter((r) => r.structured?.schema === true);
  const controls = ok.filter((r) => r.structured?.schema === false);
  const n = (v: 'valid' | 'invalid' | 'unparsed') => withSchema.filter((r) => r.structured?.verdict === v).length;
  return {
    requests: withSchema.length,
    valid: n('valid'),
    invalid: n('invalid'),
    unparsed: n('unparsed'),
    validRate: withSchema.length > 0 ? n('valid') / withSchema.length : null,
    controls: controls.length,
    cost: { ttftMs: compare(withSchema, controls, ttftMs), tpotMs: compare(withSchema, controls, tpotMs), e2eMs: compare(withSchema, controls, e2eMs) },
  };
}
