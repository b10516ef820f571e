/**
 * What a level sent with tools adds to its figures: how many calls came back
 * parsed and valid (the rates are over the requests that had to or chose to
 * call: `none` answers of tool_choice auto are counted apart), time to first
 * tool-call token, time to complete the arguments and the argument tokens.
 */
import { z } from 'zod';
import { isOk, type RequestRecord, type ToolCallVerdict } from './record.js';
import { mean, percentiles } from './percentiles.js';
import { toolArgumentsMs, toolTtftMs } from './request-metrics.js';

const ms = z.number().nonnegative();

export const toolCallSummarySchema = z
  .object({
    /** Successful measured requests sent with tools. */
    requests: z.number().int().nonnegative(),
    /** Of those, by verdict. */
    valid: z.number().int().nonnegative(),
    invalid: z.number().int().nonnegative(),
    unparsed: z.number().int().nonnegative(),
    missing: z.number().int().nonnegative(),
    none: z.number().int().nonnegative(),
    /** (valid + invalid) / judged and valid / judged, where judged = requests − none; null when nothing was judged. */
    parseRate: z.number().min(0).max(1).nullable(),
    validRate: z.number().min(0).max(1).nullable(),
    /** Send → first chunk with tool-call data. */
    ttftToolMs: z.object({ p50: ms, p95: ms, p99: ms }).nullable(),
    /** First tool-call chunk → last chunk with argument text. */
    argumentsMs: z.object({ p50: ms, p95: ms }).nullable(),
    /** Mean tokens of tool-call chunks per request that called. */
    argumentTokensMean: z.number().nullable(),
  })
  .superRefine((s, ctx) => {
    // A stored summary is checked, not believed: its verdicts are its requests, its rates theirs.
    const counted = s.valid + s.invalid + s.unparsed + s.missing + s.none;
    if (counted !== s.requests) ctx.addIssue({ code: 'custom', path: ['requests'], message: `is ${s.requests}, but the verdicts count ${counted}` });
    const judged = s.requests - s.none;
    const rate = (n: number) => (judged > 0 ? n / judged : null);
    const near = (a: number | null, b: number | null) => (a === null || b === null ? a === b : Math.abs(a - b) <= 1e-9);
    if (!near(s.parseRate, rate(s.valid + s.invalid)))
      ctx.addIssue({ code: 'custom', path: ['parseRate'], message: `is ${s.parseRate}, but the verdicts give ${rate(s.valid + s.invalid)}` });
    if (!near(s.validRate, rate(s.valid)))
      ctx.addIssue({ code: 'custom', path: ['validRate'], message: `is ${s.validRate}, but the verdicts give ${rate(s.valid)}` });
  });
export type ToolCallSummary = z.infer<typeof toolCallSummarySchema>;

/** The tool-call figures of a level's records; null when none was sent with tools. */
export function summarizeToolCalls(records: readonly RequestRecord[]): ToolCallSummary | null {
  const sent = records.filter((r) => !r.warmup && isOk(r) && r.toolCalls !== undefined);
  if (sent.length === 0 && !records.some((r) => r.toolCalls !== undefined)) return null;
  const count: Record<ToolCallVerdict, number> = { valid: 0, invalid: 0, unparsed: 0, missing: 0, none: 0 };
  const ttft: number[] = [];
  const args: number[] = [];
  const tokens: number[] = [];
  for (const r of sent) {
    const c = r.toolCalls as NonNullable<RequestRecord['toolCalls']>;
    count[c.verdict]++;
    const t = toolTtftMs(r);
    if (t !== null) ttft.push(t);
    const a = toolArgumentsMs(r);
    if (a !== null) args.push(a);
    if (c.calls > 0) tokens.push(c.argumentTokens);
  }
  const judged = sent.length - count.none;
  const p3 = percentiles(ttft, [50, 95, 99]);
  const p2 = percentiles(args, [50, 95]);
  return {
    requests: sent.length,
    ...count,
    parseRate: judged > 0 ? (count.valid + count.invalid) / judged : null,
    validRate: judged > 0 ? count.valid / judged : null,
    ttftToolMs: p3 === null ? null : { p50: p3.p50, p95: p3.p95, p99: p3.p99 },
    argumentsMs: p2 === null ? null : { p50: p2.p50, p95: p2.p95 },
    argumentTokensMean: mean(tokens),
  };
}
