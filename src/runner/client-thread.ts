/**
 * A client thread (worker_threads): its own event loop, its own connection pool,
 * and one share of each level (run-level.ts LevelShare). It stamps every instant
 * on the main thread's clock, sends its records to the main thread in batches
 * (JSON bytes in a transferred buffer, never one message per event), and reports
 * its own event-loop delay and busy share, so the client-bound check is made per
 * thread. Driven by client-threads.ts; the messages are typed there.
 */
import { parentPort } from 'node:worker_threads';
import type { PoolingRecord, RequestRecord } from '../core/index.js';
import { type PoolingClient, type StreamingClient, createPoolingClient, dialects } from '../client/index.js';
import { runPoolingShare } from './pooling-share.js';
import { recordBatches } from './record-batches.js';
import { runShare } from './run-share.js';
import type { FromThread, ThreadInit, ToThread } from './client-threads.js';
import { sweepClient } from './sweep-client.js';

/** A batch leaves when it holds this many records… */
const BATCH_RECORDS = 256;
/** …or when its oldest record is this old, ms (progress stays live). */
const BATCH_MS = 100;

const port = parentPort;
if (port === null) throw new Error('client-thread.ts runs only as a worker thread');
const post = (m: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

/** The sweep this thread serves now (a thread outlives its sweep: client-threads.ts keeps idle ones). */
let init: ThreadInit = null as unknown as ThreadInit;
let client: StreamingClient = null as unknown as StreamingClient;
/** Set instead of `client` when the sweep is of embeddings or rerank. */
let pooling: { client: PoolingClient; model: string } | null = null;
let originHrNs = 0;
// The main thread's clock: the same monotonic source, the same origin.
const clock = () => Math.round(Number(process.hrtime.bigint()) - originHrNs);

// JSON bytes in a transferred buffer: one copy, no structured clone of every record.
const batches = recordBatches<RequestRecord | PoolingRecord>(BATCH_RECORDS, BATCH_MS, (json) => {
  const bytes = new TextEncoder().encode(json);
  post({ type: 'records', bytes }, [bytes.buffer as ArrayBuffer]);
});

let stop: AbortController | null = null;
let startAt: ((ns: number) => void) | null = null;

/** Says this share is ready (warm-ups sent, sockets open); resolves with the start instant the main thread names. */
const ready = () =>
  new Promise<number>((resolve) => {
    startAt = resolve;
    post({ type: 'ready' });
  });

/** This thread's share of a level of either kind, from its stop to its report (a pooling share has no schedule or server check). */
async function share(send: (signal: AbortSignal) => Promise<Omit<Extract<FromThread, { type: 'done' }>, 'type'>>): Promise<void> {
  stop = new AbortController();
  const done = await send(stop.signal);
  startAt = null;
  batches.flush();
  post({ type: 'done', ...done });
  stop = null;
}

/** This thread's share of a text level. */
function level(m: Extract<ToThread, { type: 'level' }>): Promise<void> {
  const label = `thread ${m.index + 1}`;
  return share(async (signal) => {
    const { run, loopDelayMs, busyPct } = await runShare({
      client,
      spec: init.spec,
      state: init.state,
      model: init.model,
      runId: init.runId,
      clock,
      index: m.index,
      count: m.count,
      concurrency: m.concurrency,
      requests: m.requests,
      promptOffset: m.promptOffset,
      signal,
      onRecord: (r) => {
        r.client = label;
        batches.add(r);
      },
      ready,
    });
    return { serverFailure: run.serverFailure, waitedForSlot: run.load.waitedForSlot, scheduledNs: run.scheduledNs, loopDelayMs, busyPct };
  });
}

/** This thread's share of a pooling level: warm-ups, ready, the start instant, the measured requests. */
async function poolingLevel(m: Extract<ToThread, { type: 'pooling-level' }>): Promise<void> {
  const p = pooling;
  if (p === null) throw new Error('a pooling level came before its init');
  return share(async (signal) => {
    const run = await runPoolingShare({
      client: p.client,
      model: p.model,
      concurrency: m.concurrency,
      plan: m.plan,
      clock,
      signal,
      onRecord: batches.add,
      ready,
    });
    return { serverFailure: null, waitedForSlot: 0, scheduledNs: null, loopDelayMs: run.loopDelayMs, busyPct: run.busyPct };
  });
}

port.on('message', (m: ToThread) => {
  switch (m.type) {
    case 'pooling-init':
      originHrNs = m.init.originHrNs;
      pooling = {
        model: m.init.model,
        client: createPoolingClient(m.init.target, m.init.route, {
          connections: m.init.connections,
          clock,
          timeoutMs: m.init.timeoutMs,
          idleMs: m.init.idleMs,
          ...(m.init.retry === undefined ? {} : { retry: m.init.retry }),
          ...(m.init.traceparent === undefined ? {} : { traceparent: m.init.traceparent }),
        }),
      };
      break;
    case 'pooling-level':
      poolingLevel(m).catch((err: unknown) => post({ type: 'failed', message: (err as Error).message }));
      break;
    case 'init':
      init = m.init;
      originHrNs = init.originHrNs;
      client = sweepClient(init.spec, {
        connections: init.connections,
        clock,
        timeouts: init.spec.timeouts,
        dialect: dialects[init.dialect],
        retry: init.spec.retry,
        traceparent: init.spec.traceparent,
      });
      break;
    case 'level':
      level(m).catch((err: unknown) => post({ type: 'failed', message: (err as Error).message }));
      break;
    case 'start':
      startAt?.(m.atNs);
      break;
    case 'stop':
      stop?.abort();
      // Stopped while waiting for the start: start now, so the level ends at once.
      startAt?.(clock());
      break;
    case 'release': {
      // Whichever sweep this thread served: a text sweep's streaming client or a pooling sweep's.
      const closing = pooling !== null ? pooling.client.close() : client.close();
      pooling = null;
      void closing.then(() => post({ type: 'released' }));
      break;
    }
  }
});
