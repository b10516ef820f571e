/**
 * What a multi-turn run adds to its level: figures per turn index (TTFT, TPOT,
 * prompt and cached prompt tokens: the prompt grows turn by turn and a prefix
 * cache should find more of it), and per session (how many completed every
 * turn, their total time and tokens).
 */
import { z } from 'zod';
import { isOk, type RequestRecord } from './record.js';
import { tpotMs, ttftMs } from './request-metrics.js';
import { percentiles } from './percentiles.js';

const p50p95 = z.object({ p50: z.number(), p95: z.number() }).nullable();

export const sessionSummarySchema = z.object({
  sessions: z.number().int().nonnegative(),
  /** Sessions whose every turn was sent and succeeded. */
  completed: z.number().int().nonnegative(),
  /** First send to last end of a completed session, ms. */
  durationMs: p50p95,
  /** Means over completed sessions: prompt tokens summed over turns, output tokens summed over turns. */
  promptTokensMean: z.number().nullable(),
  outputTokensMean: z.number().nullable(),
  turns: z.array(
    z.object({
      /** 1-based. */
      turn: z.number().int().positive(),
      requests: z.number().int().nonnegative(),
      succeeded: z.number().int().nonnegative(),
      ttftMs: p50p95,
      tpotMs: p50p95,
      promptTokensMean: z.number().nullable(),
      cachedPromptTokensMean: z.number().nullable(),
      /** Mean request body bytes: grows with the history a chat session resends, stays flat on the Responses API (absent in earlier results). */
      requestBodyBytesMean: z.number().nullable().optional(),
    }),
  ),
});
export type SessionSummary = z.infer<typeof sessionSummarySchema>;

const meanOf = (xs: readonly number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const spread = (xs: number[]) => {
  const p = percentiles(xs, [50, 95]);
  return p === null ? null : { p50: p.p50, p95: p.p95 };
};
const present = (xs: ReadonlyArray<number | null>) => xs.filter((v): v is number => v !== null);

/** The summary of a level's session records; null when none belongs to a session. `planned` is each session's turn count. */
export function summarizeSessions(records: readonly RequestRecord[], planned: readonly number[]): SessionSummary | null {
  const mine = records.filter((r) => !r.warmup && r.session !== undefined);
  if (mine.length === 0) return null;
  const byTurn = new Map<number, RequestRecord[]>();
  const bySession = new Map<number, RequestRecord[]>();
  for (const r of mine) {
    const s = r.session as { id: number; turn: number };
    byTurn.set(s.turn, [...(byTurn.get(s.turn) ?? []), r]);
    bySession.set(s.id, [...(bySession.get(s.id) ?? []), r]);
  }
  const complete = [...bySession.entries()].filter(([id, rs]) => rs.length === planned[id] && rs.every(isOk)).map(([, rs]) => rs);
  return {
    sessions: bySession.size,
    completed: complete.length,
    durationMs: spread(complete.map((rs) => (Math.max(...rs.map((r) => r.endNs ?? r.sendNs)) - Math.min(...rs.map((r) => r.sendNs))) / 1e6)),
    promptTokensMean: meanOf(complete.map((rs) => rs.reduce((a, r) => a + (r.promptTokens ?? 0), 0))),
    outputTokensMean: meanOf(complete.map((rs) => rs.reduce((a, r) => a + r.outputTokens, 0))),
    turns: [...byTurn.keys()]
      .sort((a, b) => a - b)
      .map((turn) => {
        const rs = byTurn.get(turn) as RequestRecord[];
        const ok = rs.filter(isOk);
        return {
          turn: turn + 1,
          requests: rs.length,
          succeeded: ok.length,
          ttftMs: spread(present(ok.map(ttftMs))),
          tpotMs: spread(present(ok.map(tpotMs))),
          promptTokensMean: meanOf(present(ok.map((r) => r.promptTokens))),
          cachedPromptTokensMean: meanOf(present(ok.map((r) => r.cachedPromptTokens))),
          requestBodyBytesMean: meanOf(present(ok.map((r) => r.requestBodyBytes ?? null))),
        };
      }),
  };
}
