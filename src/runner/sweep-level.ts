/**
 * What a text sweep makes of one level once it has been sent: the level's
 * result from its records and telemetry, the warnings it earns, and the stop
 * reason's closing sentence. Pure steps of runSweep (sweep.ts), apart from the
 * sending so each reads on its own.
 */
import {
  LIMITS,
  type LevelLoad,
  type LevelResult,
  type LevelWindow,
  type RequestRecord,
  type ShareRecords,
  type Spread,
  type TokenizerInfo,
  type Warning,
  HELD_SHARE,
  describeInFlight,
  heldShort,
  levelAxis,
  levelValue,
  slowTarget,
  levelWindow,
} from '../core/index.js';
import type { Dialect } from '../client/index.js';
import { imageServerWarning } from './image-connections.js';
import type { ImageServer } from './image-server.js';
import { type LevelTelemetry, levelWarnings, withLostShares } from './level-telemetry.js';
import { agentsOf, levelResult, outputCapOf } from './level-result.js';
import { promptLengthWarning, sentTokens, withPromptLengths } from './prompt-lengths.js';
import type { SweepSpec } from './sweep-spec.js';

/** A level as sent, on this thread or over client threads (or workers), before it is judged. */
export interface SentLevel {
  records: RequestRecord[];
  /** Set when the server stopped answering mid-level. */
  serverFailure: string | null;
  load: LevelLoad;
  /** Each client's records when the level was split over several. */
  shares?: ShareRecords[] | undefined;
  loopDelayMs: Spread | null;
  clientCpuPct: number | null;
}

/** A judged level, with what its warnings need: the prompt tokens sent and each request's output cap. */
export interface JudgedLevel {
  level: LevelResult;
  /** Prompt tokens the level's requests were built to (null when not counted). */
  tokens: number | null;
  capOf: (r: RequestRecord) => number;
}

/** The level's result from what was sent and what telemetry saw; `promptOffset` is where its prompts began. */
export function judgeLevel(spec: SweepSpec, sent: SentLevel, tel: LevelTelemetry, promptOffset: number, info: TokenizerInfo | null): JudgedLevel {
  const tokens = sentTokens(spec, sent.records);
  const capOf = outputCapOf(spec, promptOffset);
  const level = withPromptLengths(
    {
      ...levelResult({
        load: sent.load,
        slo: spec.slo,
        capOf,
        ...(spec.prompts.kind === 'sessions' || spec.prompts.kind === 'agents' ? { sessionTurns: spec.prompts.sessions.map((s) => s.turns.length) } : {}),
        ...(spec.prompts.kind === 'agents' ? { agents: agentsOf(spec.prompts) } : {}),
        records: sent.records,
        targetOutputTokens: spec.outputTokens,
        forceLength: spec.forceLength,
        loopDelayMs: sent.loopDelayMs,
        clientCpuPct: sent.clientCpuPct,
        ...(sent.shares ? { shares: sent.shares } : {}),
        clientBudgetMs: spec.clientBudgetMs,
        gpu: tel.gpuMem,
        images: spec.images,
        audio: spec.audio,
        pacing: spec.rateLimit,
        ...(spec.fleet === null ? {} : { fleet: spec.fleet.urls }),
      }),
      ...windowOf(spec, sent),
      gpu: tel.gpu,
      ...(tel.energy && { energy: tel.energy }),
      serverTruth: tel.serverTruth,
      ...(tel.specDecode === undefined ? {} : { specDecode: tel.specDecode }),
      ...(tel.disagg === undefined ? {} : { disagg: tel.disagg }),
    },
    tokens,
    info,
  );
  return { level, tokens, capOf };
}

/** A level bounded by time: its window as its records show it (the same rule a reader recomputes it by); nothing for a level of a count. */
function windowOf(spec: SweepSpec, sent: SentLevel): { window?: LevelWindow } {
  if (spec.durationS === null) return {};
  return { window: levelWindow(sent.records, { durationS: spec.durationS, rampUpS: spec.rampUpS ?? 0 }, sent.load.level, spec.warmup) };
}

/** Image-server connections closed so far (silent or evicted): a level's own are the difference across it. */
export const imageConnectionsClosed = (server: ImageServer | null): number => (server === null ? 0 : server.closed.silent + server.closed.evicted);

/** What a finished level's warnings are read from. */
export interface LevelEnd extends JudgedLevel {
  records: readonly RequestRecord[];
  tel: LevelTelemetry;
  /** The level value it was sent at. */
  concurrency: number;
  /** Image-server connections the server closed during the level. */
  imageClosed: number;
}

/** The warnings a finished level earns, in the order the terminal shows them. */
export function levelEndWarnings(spec: SweepSpec, dialect: Dialect, info: TokenizerInfo | null, end: LevelEnd): Warning[] {
  const { level } = end;
  const out = levelWarnings(end.tel, level).map((w) => withLostShares(w, level));
  // Image tokens are counted by the server alone: the text's length cannot be judged from usage then.
  // Named on the run's own axis: "speed 4×", "concurrency 8", "4 sessions at once".
  const name = levelAxis([level]).describe(levelValue(level));
  const mismatch = info && spec.images === null && spec.audio === null ? promptLengthWarning(level, end.tokens, info, name) : null;
  if (mismatch) out.push(mismatch);
  if (level.clientBound.bound) out.push({ code: 'client-bound', message: `${name}: ${level.clientBound.reason}` });
  if (level.inFlight !== undefined && heldShort(level.inFlight))
    out.push({
      code: 'concurrency-not-held',
      message: `${name}: our client kept ${describeInFlight(level.inFlight)}: below ${Math.round(HELD_SHARE * 100)} % of the concurrency asked, so the level measured less load than it says`,
    });
  if (level.outputTokens.short > 0) {
    const why =
      dialect.length.kind === 'cannot' ? `: ${dialect.label} cannot force the length, so they are measured as they came` : ' although the length was forced';
    out.push({ code: 'short-requests', message: `${name}: ${level.outputTokens.short} requests ended below ${capsOf(end.records, end.capOf)}${why}` });
  }
  if (end.imageClosed > 0) out.push(imageServerWarning(end.concurrency, end.imageClosed, level.failed));
  const slow = level.targets ? slowTarget(level.targets) : null;
  if (slow !== null) out.push({ code: 'target-slow', message: `${name}: ${slow}` });
  if (level.window?.endedBy === 'request-limit') out.push(requestLimitWarning(name, level.window));
  return out;
}

/** A timed level whose stream sent its share of the requests a level may hold: it ended before its duration. */
function requestLimitWarning(name: string, w: LevelWindow): Warning {
  const after = w.lastSendMs === null ? '' : ` after ${(w.lastSendMs / 1000).toFixed(1)} s`;
  return {
    code: 'level-request-limit',
    message: `${name}: a stream sent its share of the ${LIMITS.requestsPerLevel.max} requests a level may hold${after}, before the ${w.durationS} s asked ended: the level is shorter than asked (fewer streams or a shorter --duration keep it whole)`,
  };
}

/** "256 tokens", or "their own output caps (16–64 tokens)" when the requests' caps differ. */
function capsOf(records: readonly RequestRecord[], capOf: (r: RequestRecord) => number): string {
  const caps = records.filter((r) => !r.warmup).map(capOf);
  const lo = Math.min(...caps);
  const hi = Math.max(...caps);
  return lo === hi ? `${lo} tokens` : `their own output caps (${lo}–${hi} tokens)`;
}
