/**
 * An embeddings or rerank level over the workers: the pooling driver's plans
 * (one per share, as it gives client threads) go out as jobs, and each share's
 * records come back on this process's clock through its measured offset; the
 * driver merges the shares into one level as it merges thread shares. A
 * request a lost worker never reported is failed as our side's (a
 * connection error coded client-lost), never counted as the server's.
 */
import { type PoolingRecord, RUN_KINDS } from '../core/index.js';
import type { DialectKind } from '../client/index.js';
import { CLIENT_LOST, type PoolingShareResult, type PoolingSharePlan, type PoolingSpec, type PoolingThreads } from '../runner/index.js';
import { type Coordination, type WorkerLevel, SHARE_DEADLINE_SLACK_MS, runLevelOnWorkers } from './coordinator-level.js';
import type { PoolingShareJob } from './share-job.js';

/** The pooling sweep's identity as the pool is given it (PoolingDeps.clients). */
export interface PoolingInit {
  spec: PoolingSpec;
  model: string;
  dialect: DialectKind;
  connections: number;
}

/** One pooling level: its concurrency, a plan per share, the stop and the progress callback. */
interface PoolingLevelSend {
  concurrency: number;
  plans: readonly PoolingSharePlan[];
  signal: AbortSignal;
}

/** The pooling level as the workers' coordination takes it. */
function poolingLevel(init: PoolingInit, lv: PoolingLevelSend): WorkerLevel {
  const { apiKey: _key, ...withoutKey } = init.spec;
  const planOf = (i: number) => lv.plans[i] as PoolingSharePlan;
  return {
    concurrency: lv.concurrency,
    count: lv.plans.length,
    resplits: false,
    signal: lv.signal,
    beforeMeasured: async () => {},
    needsApiKey: init.spec.apiKey !== undefined,
    model: init.model,
    dialect: init.dialect,
    connections: init.connections,
    jobOf: (i): Pick<PoolingShareJob, 'kind' | 'spec' | 'plan'> => ({ kind: 'pooling', spec: withoutKey, plan: planOf(i) }),
    deadlineMs: () => Math.max(...lv.plans.map((p) => poolingShareDeadlineMs(init.spec, p))),
    seqsOf: (i) => [...planOf(i).warmups, ...planOf(i).measured].map((s) => s.seq),
    recordSchema: RUN_KINDS.pooling.recordSchema,
    lostOf: (i, _count, have, why, _client, atNs) => {
      const seen = new Set(have.map((r) => r.seq));
      const at = Math.round(atNs);
      return planOf(i)
        .measured.filter((s) => !seen.has(s.seq))
        .map((s): PoolingRecord => ({
          seq: s.seq,
          concurrency: lv.concurrency,
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
    target: { url: init.spec.url, apiKey: init.spec.apiKey },
  };
}

/** A pooling share's bound from its start: its warm-ups one after another, then its measured requests over its streams, each within the timeout. */
function poolingShareDeadlineMs(spec: PoolingSpec, plan: PoolingSharePlan): number {
  const perStream = plan.warmups.length + Math.ceil(plan.measured.length / Math.max(1, plan.streams));
  return Math.min(perStream * spec.timeoutMs, 86_400_000) + SHARE_DEADLINE_SLACK_MS;
}

/** The pool an embeddings or rerank sweep splits its levels over: every level goes to the workers, this process sends nothing. */
export function poolingOnWorkers(
  c: Coordination,
  init: PoolingInit,
  size: number,
  guard: <T>(concurrency: number, run: () => Promise<T>) => Promise<T>,
): PoolingThreads {
  async function runLevel(
    concurrency: number,
    plans: readonly PoolingSharePlan[],
    signal: AbortSignal,
    onRecord: (r: PoolingRecord) => void,
  ): Promise<PoolingShareResult[]> {
    const sent = await guard(concurrency, () => runLevelOnWorkers(c, poolingLevel(init, { concurrency, plans, signal })));
    if (sent === null) return [];
    return sent.shares.map((s) => {
      // On this process's clock: both instants moved by the share's measured offset.
      const records = (s.records as PoolingRecord[]).map((r) => ({ ...r, sentNs: r.sentNs + s.clockOffsetNs, endNs: r.endNs + s.clockOffsetNs }));
      for (const r of records) onRecord(r);
      return { label: s.label, records, loopDelayMs: s.loopDelayMs, busyPct: s.clientCpuPct };
    });
  }
  return { size: Math.max(1, size), always: true, runLevel, close: async () => {} };
}
