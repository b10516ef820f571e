/**
 * What a worker sends for a share, by run kind: a text-generation share runs
 * the level's part the spec gives it over a streaming client (as a client
 * thread does), an embeddings or rerank share sends the plan its job carries
 * over a pooling client. The rest of a share (the claim, the clock, the start,
 * the signed records, the report) is the same for every kind (take-share.ts).
 */
import type { RecordOf, Spread } from '../core/index.js';
import { createPoolingClient, dialects, monotonicNs } from '../client/index.js';
import { type WorkerKindName, routeOf, runPoolingShare, runShare, sweepClient } from '../runner/index.js';
import type { ShareJob, ShareJobOf } from './share-job.js';

/** What sending a share needs from the worker. */
export interface ShareSending {
  /** The worker's own API key, from its environment (sent only when the job says the server needs one). */
  apiKey: string | undefined;
  /** Names the worker in a text record's `client`. */
  label: string;
  signal: AbortSignal;
  onRecord(r: RecordOf): void;
  /** Says the share is ready and resolves with the level's start instant on this worker's monotonic clock, ns. */
  ready(): Promise<number>;
}

/** How a share went: what it sent and owed, and its client's view of itself. */
export interface ShareSent {
  sent: number;
  owed: number;
  loopDelayMs: Spread | null;
  busyPct: number | null;
  waitedForSlot: number;
  serverFailure: string | null;
}

interface ShareSender<K extends WorkerKindName> {
  send(job: ShareJobOf<K>, s: ShareSending): Promise<ShareSent>;
  /** The request timeout and warm-ups per level: how long a ready share waits for its start. */
  pace(job: ShareJobOf<K>): { timeoutMs: number; warmup: number };
}

const SHARE_SENDERS: { [K in WorkerKindName]: ShareSender<K> } = {
  text: {
    async send(job, s) {
      const spec = { ...job.spec, ...(job.needsApiKey ? { apiKey: s.apiKey } : {}) };
      const client = sweepClient(spec, {
        connections: job.connections,
        clock: monotonicNs,
        timeouts: spec.timeouts,
        dialect: dialects[job.dialect],
        retry: spec.retry,
        traceparent: spec.traceparent,
      });
      try {
        const { run, loopDelayMs, busyPct } = await runShare({
          client,
          spec,
          state: job.state,
          model: job.model,
          runId: job.runId,
          clock: monotonicNs,
          index: job.index,
          count: job.count,
          concurrency: job.concurrency,
          requests: job.requests,
          promptOffset: job.promptOffset,
          signal: s.signal,
          onRecord: (r) => {
            r.client = s.label;
            s.onRecord(r);
          },
          ready: s.ready,
        });
        return { sent: run.records.length, owed: job.requests, loopDelayMs, busyPct, waitedForSlot: run.load.waitedForSlot, serverFailure: run.serverFailure };
      } finally {
        await client.close();
      }
    },
    pace: (job) => ({ timeoutMs: job.spec.timeouts.totalMs, warmup: job.spec.warmup }),
  },
  pooling: {
    async send(job, s) {
      const spec = { ...job.spec, ...(job.needsApiKey ? { apiKey: s.apiKey } : {}) };
      // The route from the job's dialect and spec, as the coordinator chose it: a job names no path of its own.
      const route = routeOf(dialects[job.dialect], spec);
      const client = createPoolingClient({ baseUrl: spec.url, apiKey: spec.apiKey }, route, {
        connections: job.connections,
        clock: monotonicNs,
        timeoutMs: spec.timeoutMs,
        idleMs: spec.idleMs,
        retry: spec.retry,
        traceparent: spec.traceparent,
      });
      try {
        const run = await runPoolingShare({
          client,
          model: job.model,
          concurrency: job.concurrency,
          plan: job.plan,
          clock: monotonicNs,
          signal: s.signal,
          onRecord: s.onRecord,
          ready: s.ready,
        });
        return {
          sent: run.records.length,
          owed: job.plan.measured.length,
          loopDelayMs: run.loopDelayMs,
          busyPct: run.busyPct,
          waitedForSlot: 0,
          serverFailure: null,
        };
      } finally {
        await client.close();
      }
    },
    pace: (job) => ({ timeoutMs: job.spec.timeoutMs, warmup: job.spec.warmup }),
  },
};

/** Sends the share with its kind's sender. */
export function sendShare(job: ShareJob, s: ShareSending): Promise<ShareSent> {
  return (SHARE_SENDERS[job.kind] as ShareSender<WorkerKindName>).send(job, s);
}

/** The request timeout and warm-ups of the share's kind. */
export function sharePace(job: ShareJob): { timeoutMs: number; warmup: number } {
  return (SHARE_SENDERS[job.kind] as ShareSender<WorkerKindName>).pace(job);
}
