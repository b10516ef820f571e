/**
 * A level's result: the core summary of its records, plus how the load was
 * applied, the mean cached prompt tokens, and goodput when the spec has SLOs.
 * For an open loop, `concurrency` is the most requests in flight at once and
 * the steady-state figures (defined for C busy slots) are left null. Requests
 * whose prompt carries its own output cap (corpora) are judged short against it.
 */
import {
  type AgentSummaryInput,
  type AudioInputs,
  type ImageInputs,
  summarizeAdapters,
  summarizeAgents,
  type LevelInput,
  type LevelLoad,
  type LevelResult,
  type RequestRecord,
  type ShareRecords,
  type Slo,
  type SweepResult,
  e2eFromScheduleMs,
  disaggFromRecords,
  energyFromRecords,
  specDecodeFromRecords,
  isOk,
  levelGoodput,
  levelWindow,
  mean,
  percentiles,
  sharesFromRecords,
  ttftFromScheduleMs,
  summarizeLevel,
  summarizeSessions,
  replaySeries,
  targetBreakdown,
  withShares,
} from '../core/index.js';
import { type AgentsSource, agentBlockKeys, outputCapAt } from '../workload/index.js';
import type { SweepSpec } from './sweep-spec.js';

export interface LevelResultInput extends Omit<LevelInput, 'concurrency'> {
  load: LevelLoad;
  slo: Slo | null;
  /** Multi-turn runs: each session's planned turns. */
  sessionTurns?: readonly number[];
  /** Agent traces: the graph and each turn's prompt blocks. */
  agents?: Pick<AgentSummaryInput, 'graph' | 'blocksOf'>;
  /** Each request's own output cap, tokens. */
  capOf: (r: RequestRecord) => number;
  /** The clients the level was split over (`records` are theirs, merged): each is judged client-bound on its own. */
  shares?: readonly ShareRecords[];
  /** The images every request carried (chat with image inputs). */
  images?: ImageInputs | null;
  /** The audio clip every request carried (chat with audio inputs). */
  audio?: AudioInputs | null;
  /** A fleet's targets in order (records name theirs by index): the level gains its breakdown per target. */
  fleet?: readonly string[];
}

/** The output cap of each request of a level whose prompts start at `promptOffset` in the sweep. */
export function outputCapOf(spec: SweepSpec, promptOffset: number): (r: RequestRecord) => number {
  const src = spec.prompts;
  // A session's turns are sent interleaved with other sessions': the record says which turn it was.
  if (src.kind === 'sessions' || src.kind === 'agents')
    return (r) => (r.session ? src.sessions[r.session.id]?.turns[r.session.turn]?.o : undefined) ?? spec.outputTokens;
  return (r) => outputCapAt(spec.prompts, promptOffset + r.seq) ?? spec.outputTokens;
}

/** What the agent summary needs of an agent trace's source. */
export function agentsOf(src: AgentsSource): NonNullable<LevelResultInput['agents']> {
  return { graph: src, blocksOf: (id, turn) => agentBlockKeys(src, id, turn) };
}

export function levelResult(input: LevelResultInput): LevelResult {
  const { load, slo, capOf, sessionTurns, shares, agents, images, audio, fleet, ...rest } = input;
  const closed = load.kind === 'concurrency';
  // A session's turns wait out its think time between them: its slot is idle by design, so nothing is judged against C.
  const heldAgainst = closed && !input.records.some((r) => r.session !== undefined) ? load.level : null;
  const summary = summarizeLevel({ ...rest, concurrency: closed ? load.level : Math.max(1, load.peakInFlight), heldAgainst });
  const ok = input.records.filter((r) => !r.warmup && isOk(r));
  const cached = ok.flatMap((r) => (r.cachedPromptTokens === null ? [] : [r.cachedPromptTokens]));
  return {
    ...(shares && shares.length > 0 ? withShares(summary, shares, input.clientBudgetMs, input.clientBudgetRule) : summary),
    ...(closed ? {} : { steadyThroughputTokS: null, steadyWindowMs: null }),
    outputTokens: { ...summary.outputTokens, short: input.forceLength ? ok.filter((r) => r.outputTokens < capOf(r)).length : 0 },
    load,
    ...(closed ? {} : { fromSchedule: fromSchedule(ok) }),
    cachedPromptTokens: { mean: mean(cached) },
    goodput: slo === null ? null : levelGoodput(input.records, slo, summary.durationMs),
    ...(sessionTurns ? ((s) => (s === null ? {} : { sessions: s }))(summarizeSessions(input.records, sessionTurns)) : {}),
    ...(agents ? { agents: summarizeAgents({ ...agents, records: input.records, speed: load.level, slo, durationMs: summary.durationMs }) } : {}),
    ...(load.kind === 'trace' ? { replaySeries: replaySeries(input.records, slo) } : {}),
    ...(images ? { images } : {}),
    ...(audio ? { audio } : {}),
    ...adaptersOf(input.records, summary.durationMs),
    ...(fleet ? { targets: targetBreakdown(fleet, input.records, summary.durationMs) } : {}),
  };
}

/** Each LoRA adapter's figures, when the records name adapters (a run with --lora): computed from them alone, so a result read back recomputes them. */
function adaptersOf(records: readonly RequestRecord[], durationMs: number): Pick<LevelResult, 'adapters'> {
  const adapters = summarizeAdapters(records, durationMs);
  return adapters === null ? {} : { adapters };
}

/** TTFT and e2e from the scheduled send, over an open loop's successful measured requests. */
function fromSchedule(ok: readonly RequestRecord[]): NonNullable<LevelResult['fromSchedule']> {
  const of = (f: (r: RequestRecord) => number | null) => ok.flatMap((r) => ((v) => (v === null ? [] : [v]))(f(r)));
  return { ttftMs: percentiles(of(ttftFromScheduleMs), [50, 95, 99]), e2eMs: percentiles(of(e2eFromScheduleMs), [50, 95]) };
}

const closedLoad = (c: number): LevelLoad => ({
  kind: 'concurrency',
  level: c,
  label: `${c} streams`,
  offeredRps: null,
  achievedRps: null,
  peakInFlight: c,
  waitedForSlot: 0,
  scheduleLagMs: null,
});

/**
 * A stated level of a result file as its raw records give it, with the code the
 * sweep used: what a file states is never trusted. The inputs records cannot hold
 * (loop delay, CPU, GPU memory, the load as applied) are taken from the stated level.
 */
export function levelFromRecords(run: SweepResult, stated: LevelResult, records: readonly RequestRecord[]): LevelResult {
  const cb = stated.clientBound;
  const { inFlight, ...again } = levelResult({
    load: stated.load ?? closedLoad(stated.concurrency),
    slo: run.run.slo ?? null,
    capOf: () => run.run.outputTokens,
    records,
    targetOutputTokens: run.run.outputTokens,
    forceLength: run.run.forceLength,
    loopDelayMs: cb.loopDelayMs,
    clientCpuPct: cb.clientCpuPct,
    clientBudgetMs: cb.budgetMs,
    gpu: stated.gpuMemMiB,
    pacing: run.run.rateLimit ?? null,
    // A result of an earlier version, judged at the floor alone, is recomputed by its own rule.
    clientBudgetRule: cb.budgets === undefined ? 'floor' : 'scaled',
    ...(stated.shares ? { shares: sharesFromRecords(stated.shares, records) } : {}),
    // The breakdown per target is the records' own: only the targets' addresses are taken from the stated level.
    ...(stated.targets ? { fleet: stated.targets.map((t) => t.url) } : {}),
  });
  return {
    ...again,
    // A result of an earlier version states no in-flight figures; one that does gets them from its records, never its own.
    ...(stated.inFlight === undefined ? {} : { inFlight }),
    // A timed level's window is the records' own, by the rule the sweep used: never taken from the file.
    ...(run.run.loadShape === undefined ? {} : { window: levelWindow(records, run.run.loadShape, stated.concurrency, run.run.warmupPerLevel) }),
    ...(stated.gpu === undefined ? {} : { gpu: stated.gpu }),
    // The GPU readings and the server's counters are not in the records: what they give is carried, and what the records give (windows, tokens, our own chunks, the arithmetic) recomputed.
    ...(stated.energy === undefined ? {} : { energy: energyFromRecords(stated.energy, records) }),
    ...(stated.serverTruth === undefined ? {} : { serverTruth: stated.serverTruth }),
    // The server's counters are not in the records: the stated counters are carried, what the records give is recomputed.
    ...(stated.specDecode === undefined ? {} : { specDecode: specDecodeFromRecords(stated.specDecode, records) }),
    ...(stated.disagg === undefined ? {} : { disagg: disaggFromRecords(stated.disagg, records) }),
    ...(stated.images === undefined ? {} : { images: stated.images }),
    ...(stated.imageFiles === undefined ? {} : { imageFiles: stated.imageFiles }),
    ...(stated.audio === undefined ? {} : { audio: stated.audio }),
    ...promptLengthsOf(stated, records),
  };
}

/**
 * What a stated level says of its synthetic prompts (the length sent and how it
 * was counted), with what the server added recomputed from the records' usage.
 */
function promptLengthsOf(stated: LevelResult, records: readonly RequestRecord[]): Partial<LevelResult> {
  const p = stated.promptTokens;
  if (p.countedBy === undefined) return {};
  const served = mean(records.filter((r) => !r.warmup && isOk(r)).flatMap((r) => (r.promptTokens === null ? [] : [r.promptTokens])));
  const sent = p.sent ?? null;
  const templateTokens =
    p.templateTokens === null || p.templateTokens === undefined || sent === null || served === null ? null : Math.round((served - sent) * 100) / 100;
  return { promptTokens: { mean: served, sent, templateTokens, countedBy: p.countedBy } };
}
