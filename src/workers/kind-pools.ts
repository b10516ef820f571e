/**
 * The pool a sweep of each kind splits its levels over when the levels go to
 * worker processes: every level goes to the workers, this process sends
 * nothing. A level's coordination is the same for every kind
 * (coordinator-level.ts); what a kind gives is its WorkerLevel (its jobs, the
 * sequence numbers a share owes, how its lost requests fail) and how its
 * shares, each on this process's clock through its measured offset, merge:
 * text shares into the one level the sweep judges, pooling shares as the
 * pooling driver merges thread shares. A request a lost worker never reported
 * fails as our side's (text: client-lost records; pooling: a connection error
 * coded client-lost), never as the server's.
 */
import { LIMITS, type PoolingRecord, type RequestRecord, type ShareRecords, RUN_KINDS, mergeShareRecords } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import {
  CLIENT_LOST,
  type ClientsOf,
  type LevelOnThreads,
  type PoolingSharePlan,
  type PoolingSpec,
  type SpecOf,
  SweepError,
  type SweepSpec,
  type WorkerKindName,
  shareSeqs,
} from '../runner/index.js';
import { type Coordination, type WorkerLevel, SHARE_DEADLINE_SLACK_MS, runLevelOnWorkers } from './coordinator-level.js';
import type { PoolingShareJob, TextShareJob } from './share-job.js';
import { lostRecords } from './share-records.js';

/** What every kind's pool is given of its sweep (the driver's `clients` init). */
interface PoolInit<K extends WorkerKindName> {
  spec: SpecOf<K>;
  model: string;
  dialect: string;
  connections: number;
}

/** The fields of a level that are the same for every kind. */
function commonLevel<K extends WorkerKindName>(init: PoolInit<K>, kind: K, concurrency: number, signal: AbortSignal) {
  return {
    concurrency,
    signal,
    needsApiKey: init.spec.apiKey !== undefined,
    model: init.model,
    dialect: init.dialect,
    connections: init.connections,
    recordSchema: RUN_KINDS[kind].recordSchema,
    target: { url: init.spec.url, apiKey: init.spec.apiKey },
  };
}

/** The text level as the workers' coordination takes it: each share computes its part from its index and count, as a client thread does. */
function textLevel(init: Parameters<ClientsOf<'text'>>[0], level: LevelOnThreads): WorkerLevel {
  const { apiKey: _key, ...withoutKey } = init.spec;
  const sessions = init.spec.prompts.kind === 'sessions';
  // Every share may write the warm-ups' sequence numbers (share 1 sends them); sessions have none.
  const warm = sessions ? 0 : init.spec.warmup;
  return {
    ...commonLevel(init, 'text', level.concurrency, level.signal),
    count: level.count,
    resplits: true,
    beforeMeasured: level.beforeMeasured,
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
    lostOf: (index, count, have, why, client, atNs) => lostRecords(init.spec, level, { index, count }, have as RequestRecord[], why, client, atNs),
    // A session ends at its first failed turn, so a finished share of sessions may rightly send fewer.
    missingIsLoss: !sessions,
  };
}

/**
 * How long a text share may take from its start, ms: each of its connections
 * sends its part of the level one request after the other, each within the
 * request timeout; bounded at a day, plus slack.
 */
function shareDeadlineMs(spec: SweepSpec, level: Pick<LevelOnThreads, 'concurrency' | 'requests'>, count: number): number {
  const streams = Math.max(1, Math.floor(Math.min(level.concurrency, LIMITS.concurrency.max) / count));
  const perStream = Math.ceil((spec.warmup + level.requests / count) / streams);
  return Math.min(perStream * spec.timeouts.totalMs, 86_400_000) + SHARE_DEADLINE_SLACK_MS;
}

/** The pooling level as the workers' coordination takes it: each share sends the plan its job carries, fixed when the level is split. */
function poolingLevel(init: PoolInit<'pooling'>, concurrency: number, plans: readonly PoolingSharePlan[], signal: AbortSignal): WorkerLevel {
  const { apiKey: _key, ...withoutKey } = init.spec;
  const planOf = (i: number) => plans[i] as PoolingSharePlan;
  return {
    ...commonLevel(init, 'pooling', concurrency, signal),
    count: plans.length,
    resplits: false,
    beforeMeasured: async () => {},
    jobOf: (i): Pick<PoolingShareJob, 'kind' | 'spec' | 'plan'> => ({ kind: 'pooling', spec: withoutKey, plan: planOf(i) }),
    deadlineMs: () => Math.max(...plans.map((p) => poolingShareDeadlineMs(init.spec, p))),
    seqsOf: (i) => [...planOf(i).warmups, ...planOf(i).measured].map((s) => s.seq),
    lostOf: (i, _count, have, why, _client, atNs) => {
      const seen = new Set(have.map((r) => r.seq));
      const at = Math.round(atNs);
      return planOf(i)
        .measured.filter((s) => !seen.has(s.seq))
        .map((s): PoolingRecord => ({
          seq: s.seq,
          concurrency,
          warmup: false,
          sentNs: at,
          endNs: at,
          items: s.payload.endpoint === 'rerank' ? s.payload.documents.length : s.payload.inputs.length,
          inputTokens: null,
          dimension: null,
          outcome: { kind: 'connection-error', code: CLIENT_LOST, message: why.slice(0, 4096) },
        }));
    },
    missingIsLoss: true,
  };
}

/** A pooling share's bound from its start: its warm-ups one after another, then its measured requests over its streams, each within the timeout. */
function poolingShareDeadlineMs(spec: PoolingSpec, plan: PoolingSharePlan): number {
  const perStream = plan.warmups.length + Math.ceil(plan.measured.length / Math.max(1, plan.streams));
  return Math.min(perStream * spec.timeoutMs, 86_400_000) + SHARE_DEADLINE_SLACK_MS;
}

/** A text level over the workers, merged as client threads' shares are. */
async function textLevelOnWorkers(c: Coordination, init: Parameters<ClientsOf<'text'>>[0], level: LevelOnThreads) {
  const sent = await runLevelOnWorkers(c, textLevel(init, level));
  if (sent === null) return { records: [], shares: [], serverFailure: null, scheduledNs: null, waitedForSlot: 0 };
  const shares = sent.shares as Array<ShareRecords & { records: RequestRecord[] }>;
  const merged = mergeShareRecords(shares);
  for (const r of merged) level.onRecord(r);
  // An open loop's whole schedule, from the start on this clock.
  const plan = init.spec.prompts.kind === 'sessions' ? null : arrivalOps(init.spec.arrival).plan(level.concurrency, level.requests);
  const scheduledNs = plan?.kind === 'open' ? plan.offsetsNs.map((o) => sent.startNs + o) : null;
  return { records: merged, shares, serverFailure: sent.serverFailure, scheduledNs, waitedForSlot: sent.waitedForSlot };
}

/** The pools a sweep's levels are split over, by kind. */
export function workersPools(c: Coordination, size: number): { [K in WorkerKindName]: ClientsOf<K> } {
  /** A level; the database going away anywhere in it ends the sweep as stopped, naming it, with the finished levels kept. */
  async function guard<T>(concurrency: number, run: () => Promise<T>): Promise<T> {
    return await run().catch((err: unknown) => {
      if (err instanceof SweepError) throw err;
      // Anything else here is the database going away: one line, not a stack.
      throw new SweepError(
        'client-stopped',
        `the workers' database stopped answering during the concurrency-${concurrency} level (${(err as Error).message}); the workers reconnect when it is back`,
      );
    });
  }
  const pool = { size: Math.max(1, size), always: true, close: async () => {} };
  return {
    text: (init) => ({ ...pool, runLevel: (level) => guard(level.concurrency, () => textLevelOnWorkers(c, init, level)) }),
    pooling: (init) => ({
      ...pool,
      async runLevel(concurrency, plans, signal, onRecord) {
        const sent = await guard(concurrency, () => runLevelOnWorkers(c, poolingLevel(init, concurrency, plans, signal)));
        return (sent?.shares ?? []).map((s) => {
          // On this process's clock: both instants moved by the share's measured offset.
          const records = (s.records as PoolingRecord[]).map((r) => ({ ...r, sentNs: r.sentNs + s.clockOffsetNs, endNs: r.endNs + s.clockOffsetNs }));
          for (const r of records) onRecord(r);
          return { label: s.label, records, loopDelayMs: s.loopDelayMs, busyPct: s.clientCpuPct };
        });
      },
    }),
  };
}
