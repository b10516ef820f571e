/**
 * What an agent trace adds to its level: goodput per session and per job, how
 * late sub-agents started against the trace, each job's critical path, and the
 * prefix cache a perfect server would have had against the one it reported.
 *
 * A session meets its objective when every turn it planned was sent, succeeded
 * and met the SLOs (tool calls included where the SLO asks); a job (a root and
 * all its sub-agents) when every one of its sessions did, within the deadline.
 */
import { z } from 'zod';
import { isOk, type RequestRecord } from './record.js';
import { type Slo, judgeRequest } from './slo.js';
import { maxOf, percentiles } from './percentiles.js';

const p50p95 = z.object({ p50: z.number(), p95: z.number() }).nullable();

export const agentSummarySchema = z.object({
  sessions: z.object({
    count: z.number().int().nonnegative(),
    /** Sessions that met their objective, and that many per second of the level. */
    met: z.number().int().nonnegative(),
    metPerS: z.number().nonnegative().nullable(),
    /** First send to last end of each session whose every turn succeeded, ms. */
    timeMs: p50p95,
  }),
  jobs: z.object({
    count: z.number().int().nonnegative(),
    met: z.number().int().nonnegative(),
    metPerS: z.number().nonnegative().nullable(),
    /** First send to last end of each job whose every turn succeeded, ms. */
    makespanMs: p50p95,
    /** The job deadline the objective held them to, ms (null: none). */
    deadlineMs: z.number().positive().nullable(),
  }),
  /** Sub-agents' first sends against their parent turn's end plus the recorded delay, ms (null: no sub-agent started). */
  childStartLagMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }).nullable(),
  /** Prompt tokens a perfect prefix cache would have held (leading blocks sent earlier in the level) against those the server reported cached. */
  cache: z.object({
    promptTokens: z.number().int().nonnegative(),
    theoreticalHitTokens: z.number().int().nonnegative(),
    theoreticalHitRate: z.number().min(0).max(1).nullable(),
    /** Over the requests whose server reported both prompt and cached tokens; null when none did. */
    reportedRequests: z.number().int().nonnegative(),
    actualHitRate: z.number().min(0).max(1).nullable(),
  }),
  /** Each job: whether it met its objective, its makespan and the chain of session spans that set it (chronological). */
  jobList: z.array(
    z.object({
      job: z.string(),
      sessions: z.number().int().positive(),
      met: z.boolean(),
      makespanMs: z.number().nonnegative().nullable(),
      criticalPath: z.array(z.object({ session: z.string(), fromTurn: z.number().int().positive(), toTurn: z.number().int().positive() })),
    }),
  ),
});
export type AgentSummary = z.infer<typeof agentSummarySchema>;

/** The trace's graph as the summary needs it (the agents prompt source fits). */
export interface AgentGraph {
  blockTokens: number;
  sessions: ReadonlyArray<{ name: string; job: number; parent: number | null; after: number; atMs: number; turns: ReadonlyArray<{ p: number; w: number }> }>;
}

export interface AgentSummaryInput {
  records: readonly RequestRecord[];
  graph: AgentGraph;
  /** The level's speed: recorded delays and waits were divided by it. */
  speed: number;
  slo: Slo | null;
  durationMs: number | null;
  /** The block keys of a turn's prompt (equal keys, equal text). */
  blocksOf(id: number, turn: number): readonly string[];
}

const spread = (xs: number[]) => ((p) => (p === null ? null : { p50: p.p50, p95: p.p95 }))(percentiles(xs, [50, 95]));
const key = (id: number, turn: number) => id * 65_536 + turn;

export function summarizeAgents(input: AgentSummaryInput): AgentSummary {
  const { graph, slo } = input;
  const mine = input.records.filter((r) => !r.warmup && r.session !== undefined);
  const at = new Map<number, RequestRecord>();
  for (const r of mine) at.set(key((r.session as { id: number }).id, (r.session as { turn: number }).turn), r);
  const rec = (id: number, turn: number) => at.get(key(id, turn));
  const perS = (n: number) => (input.durationMs && input.durationMs > 0 ? n / (input.durationMs / 1000) : null);
  const sessionRecords = graph.sessions.map((s, id) => s.turns.map((_, k) => rec(id, k)));
  const complete = sessionRecords.map((rs) => rs.every((r) => r !== undefined && isOk(r)));
  const sessionMet = sessionRecords.map((rs, id) => complete[id] === true && rs.every((r) => slo === null || judgeRequest(r as RequestRecord, slo).met));
  const span = (rs: ReadonlyArray<RequestRecord | undefined>) => {
    const got = rs.filter((r): r is RequestRecord => r !== undefined);
    return (Math.max(...got.map((r) => r.endNs ?? r.sendNs)) - Math.min(...got.map((r) => r.sendNs))) / 1e6;
  };

  const members = new Map<number, number[]>();
  graph.sessions.forEach((s, id) => members.set(s.job, [...(members.get(s.job) ?? []), id]));
  const deadlineMs = slo?.jobDeadlineMs ?? null;
  const jobList = [...members.entries()].map(([root, ids]) => {
    const done = ids.every((id) => complete[id]);
    const makespanMs = done ? span(ids.flatMap((id) => sessionRecords[id] ?? [])) : null;
    const met = done && ids.every((id) => sessionMet[id]) && (deadlineMs === null || (makespanMs as number) <= deadlineMs);
    return { job: graph.sessions[root]?.name ?? String(root), sessions: ids.length, met, makespanMs, criticalPath: done ? criticalPath(input, rec, ids) : [] };
  });

  // A sub-agent's first send against its parent turn's end plus the recorded delay.
  const lags: number[] = [];
  graph.sessions.forEach((s, id) => {
    const first = rec(id, 0);
    const parentTurn = s.parent === null ? undefined : rec(s.parent, s.after);
    if (first && parentTurn?.endNs != null) lags.push((first.sendNs - (parentTurn.endNs + (s.atMs / input.speed) * 1e6)) / 1e6);
  });
  const lag = percentiles(lags, [50, 99]);

  return {
    sessions: {
      count: graph.sessions.length,
      met: sessionMet.filter(Boolean).length,
      metPerS: perS(sessionMet.filter(Boolean).length),
      timeMs: spread(sessionRecords.filter((_, id) => complete[id]).map(span)),
    },
    jobs: {
      count: jobList.length,
      met: jobList.filter((j) => j.met).length,
      metPerS: perS(jobList.filter((j) => j.met).length),
      makespanMs: spread(jobList.flatMap((j) => (j.makespanMs === null ? [] : [j.makespanMs]))),
      deadlineMs,
    },
    childStartLagMs: lag === null ? null : { ...lag, max: maxOf(lags) as number },
    cache: cacheHits(input, mine),
    jobList,
  };
}

/** A perfect prefix cache keeps every block once sent: a request hits its leading blocks sent before it, in send order. */
function cacheHits(input: AgentSummaryInput, mine: readonly RequestRecord[]): AgentSummary['cache'] {
  const { blockTokens } = input.graph;
  const seen = new Set<string>();
  let promptTokens = 0;
  let hit = 0;
  let reported = 0;
  let reportedPrompt = 0;
  let reportedCached = 0;
  for (const r of [...mine].sort((a, b) => a.sendNs - b.sendNs || a.seq - b.seq)) {
    const { id, turn } = r.session as { id: number; turn: number };
    const p = input.graph.sessions[id]?.turns[turn]?.p ?? 0;
    const keys = input.blocksOf(id, turn);
    promptTokens += p;
    let b = 0;
    while (b < keys.length && seen.has(keys[b] as string)) hit += Math.min(blockTokens, p - b++ * blockTokens);
    for (const k of keys) seen.add(k);
    if (isOk(r) && r.promptTokens !== null && r.promptTokens > 0 && r.cachedPromptTokens !== null) {
      reported++;
      reportedPrompt += r.promptTokens;
      reportedCached += Math.min(r.cachedPromptTokens, r.promptTokens);
    }
  }
  return {
    promptTokens,
    theoreticalHitTokens: hit,
    theoreticalHitRate: promptTokens > 0 ? hit / promptTokens : null,
    reportedRequests: reported,
    actualHitRate: reportedPrompt > 0 ? reportedCached / reportedPrompt : null,
  };
}

/**
 * Walks back from the job's last end: a turn was held either by its own session's
 * previous turn (plus the tool wait) or by the last child it joined; a session's
 * first turn by the parent turn that spawned it. The spans walked, in time order.
 */
function criticalPath(
  input: AgentSummaryInput,
  rec: (id: number, turn: number) => RequestRecord | undefined,
  ids: readonly number[],
): AgentSummary['jobList'][number]['criticalPath'] {
  const { sessions } = input.graph;
  const spawned = new Map<number, number[]>();
  for (const id of ids) {
    const s = sessions[id];
    if (s?.parent != null) spawned.set(key(s.parent, s.after), [...(spawned.get(key(s.parent, s.after)) ?? []), id]);
  }
  const endOf = (id: number, turn: number) => rec(id, turn)?.endNs ?? 0;
  const lastTurn = (id: number) => (sessions[id]?.turns.length ?? 1) - 1;
  let cur = ids.reduce((a, id) => (endOf(id, lastTurn(id)) > endOf(a, lastTurn(a)) ? id : a));
  let turn = lastTurn(cur);
  const out: AgentSummary['jobList'][number]['criticalPath'] = [];
  let top = turn;
  // Each step moves to an earlier-ending turn: at most the job's turns.
  for (let guard = 0; guard <= input.records.length + ids.length; guard++) {
    const s = sessions[cur];
    if (!s) break;
    if (turn === 0) {
      out.push({ session: s.name, fromTurn: 1, toTurn: top + 1 });
      if (s.parent === null) break;
      cur = s.parent;
      turn = top = s.after;
      continue;
    }
    const own = endOf(cur, turn - 1) + ((s.turns[turn]?.w ?? 0) / input.speed) * 1e6;
    const kids = spawned.get(key(cur, turn - 1)) ?? [];
    const child = kids.length === 0 ? null : kids.reduce((a, c) => (endOf(c, lastTurn(c)) > endOf(a, lastTurn(a)) ? c : a));
    if (child !== null && endOf(child, lastTurn(child)) > own) {
      out.push({ session: s.name, fromTurn: turn + 1, toTurn: top + 1 });
      cur = child;
      turn = top = lastTurn(child);
    } else turn--;
  }
  return out.reverse();
}
