/**
 * A text-generation level over the workers: each share's job names its part
 * of the level (index and count; the worker computes the rest from the spec,
 * as a client thread does), and the shares' records, each on this process's
 * clock through its measured offset, are merged into the one level the
 * sweep judges.
 */
import { LIMITS, type RequestRecord, type ShareRecords, RUN_KINDS, mergeShareRecords } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import type { DialectKind } from '../client/index.js';
import { type LevelOnThreads, type RunState, type SweepSpec, type ThreadedLevel, shareSeqs } from '../runner/index.js';
import { type Coordination, type WorkerLevel, SHARE_DEADLINE_SLACK_MS, runLevelOnWorkers } from './coordinator-level.js';
import type { TextShareJob } from './share-job.js';
import { lostRecords } from './share-records.js';

/** The sweep's identity as the pool is given it (SweepDeps.clients). */
export interface SweepInit {
  spec: SweepSpec;
  state: RunState;
  model: string;
  dialect: DialectKind;
  runId: string;
  connections: number;
}

/** The text level as the workers' coordination takes it. */
function textLevel(init: SweepInit, level: LevelOnThreads): WorkerLevel {
  const { apiKey: _key, ...withoutKey } = init.spec;
  const sessions = init.spec.prompts.kind === 'sessions';
  // Every share may write the warm-ups' sequence numbers (share 1 sends them); sessions have none.
  const warm = sessions ? 0 : init.spec.warmup;
  return {
    concurrency: level.concurrency,
    count: level.count,
    resplits: true,
    signal: level.signal,
    beforeMeasured: level.beforeMeasured,
    needsApiKey: init.spec.apiKey !== undefined,
    model: init.model,
    dialect: init.dialect,
    connections: init.connections,
    jobOf: (): Pick<TextShareJob, 'kind' | 'requests' | 'promptOffset' | 'spec' | 'state' | 'runId'> => ({
      kind: 'text',
      requests: level.requests,
      promptOffset: level.promptOffset,
      spec: withoutKey,
      state: init.state,
      runId: init.runId,
    }),
    deadlineMs: (count) => shareDeadlineMs(init.spec, level, count),
    seqsOf: (index, count) => [...Array.from({ length: warm }, (_, q) => q), ...shareSeqs(init.spec, level.concurrency, level.requests, { index, count })],
    recordSchema: RUN_KINDS.text.recordSchema,
    lostOf: (index, count, have, why, client, atNs) => lostRecords(init.spec, level, { index, count }, have as RequestRecord[], why, client, atNs),
    // A session ends at its first failed turn, so a finished share of sessions may rightly send fewer.
    missingIsLoss: !sessions,
    target: { url: init.spec.url, apiKey: init.spec.apiKey },
  };
}

/** A text level over the workers, merged as client threads' shares are. */
export async function textLevelOnWorkers(c: Coordination, init: SweepInit, level: LevelOnThreads): Promise<ThreadedLevel> {
  const sent = await runLevelOnWorkers(c, textLevel(init, level));
  if (sent === null) return { records: [], shares: [], serverFailure: null, scheduledNs: null, waitedForSlot: 0 };
  const shares = sent.shares as Array<ShareRecords & { records: RequestRecord[] }>;
  const merged = mergeShareRecords(shares);
  for (const r of merged) level.onRecord(r);
  const plan = init.spec.prompts.kind === 'sessions' ? null : planOffsets(init.spec, level);
  return {
    records: merged,
    shares,
    serverFailure: sent.serverFailure,
    scheduledNs: plan === null ? null : plan.map((o) => sent.startNs + o),
    waitedForSlot: sent.waitedForSlot,
  };
}

/**
 * How long a share may take from its start, ms: each of its connections sends
 * its part of the level one request after the other, each within the request
 * timeout; bounded at a day, plus slack.
 */
export function shareDeadlineMs(spec: SweepSpec, level: Pick<LevelOnThreads, 'concurrency' | 'requests'>, count: number): number {
  const streams = Math.max(1, Math.floor(Math.min(level.concurrency, LIMITS.concurrency.max) / count));
  const perStream = Math.ceil((spec.warmup + level.requests / count) / streams);
  return Math.min(perStream * spec.timeouts.totalMs, 86_400_000) + SHARE_DEADLINE_SLACK_MS;
}

/** An open loop's whole schedule (offsets from the start, ns), or null for a closed loop. */
function planOffsets(spec: SweepSpec, level: LevelOnThreads): number[] | null {
  const plan = arrivalOps(spec.arrival).plan(level.concurrency, level.requests);
  return plan.kind === 'open' ? plan.offsetsNs : null;
}
