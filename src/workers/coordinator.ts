/**
 * The sweep's side of distributed workers: it waits until enough workers are
 * live, and then, level by level, puts one job per share on the queue, waits for
 * every share to be ready, names a start instant in the database's clock
 * (NOTIFY goodput_start), and reads the shares' raw records back once they are
 * done. Each worker's records are put on this process's clock through both
 * clocks' measured offsets to the database at that instant. A worker that stops
 * answering mid-level is lost: what it wrote is kept, the rest of its share
 * becomes failed records naming it, and the sweep goes on.
 */
import { randomBytes } from 'node:crypto';
import { LIMITS, type RequestRecord, type ShareRecords, mergeShareRecords, rawRecordSchema, sanitizeForTerminal } from '../core/index.js';
import { arrivalOps } from '../workload/index.js';
import { type RecordRow, WORKER_LOST_AFTER_MS, type WorkerView } from '../store/index.js';
import { monotonicNs, preflight } from '../client/index.js';
import { type ClientThreads, type LevelOnThreads, type RunState, type SweepSpec, type ThreadedLevel, SweepError, shareSeqs } from '../runner/index.js';
import type { DialectKind } from '../client/index.js';
import { measureClockOffsetWell, offsetProblem, wallClock } from './clock-offset.js';
import { type ShareDetail, type ShareJob, localNs, shareDetailSchema } from './share-job.js';
import { SweepKey, registryKey } from './share-auth.js';
import { MAX_SHARE_DETAIL_BYTES, beatSweep, deleteSweepJobs, signedLiveWorkers } from './signed-rows.js';
import { SHARE_CHANNEL, SHARE_QUEUE, START_CHANNEL, type WorkerDb, openWorkerDb } from './worker-db.js';

/** The start instant is named this far ahead, ms: room for the NOTIFY to reach every worker over a network. */
const START_AHEAD_MS = 250;
/** How often shares and liveness are read while waiting (besides the notifications), ms. */
const POLL_MS = 250;
/** A share no worker has taken after this long fails the level, ms. */
const TAKE_WITHIN_MS = 30_000;
/** After Ctrl-C, the workers' last reports are waited for this long at most, ms (the coordinator stops within 2 s). */
const STOP_GRACE_MS = 1200;
/** The coordinator's own heartbeat, ms: workers abandon a share whose sweep row is older than COORDINATOR_LOST_AFTER_MS. */
export const COORDINATOR_BEAT_MS = 500;
/** A share may run this long past its plan's bound before its worker is called lost, whatever its heartbeat says, ms. */
const SHARE_DEADLINE_SLACK_MS = 5_000;
/** Rows of sweeps whose coordinator has not been seen for this long are deleted when a coordinator starts, hours (GOODPUT_WORKER_ROWS_KEEP_HOURS). */
const KEEP_HOURS_DEFAULT = 24;
/** A worker_records row whose text is larger than this is refused unread, bytes (measured uncompressed, in the database). */
const MAX_RECORD_ROW_BYTES = 16 * 1024 * 1024;
/** Records are fetched in batches of at most this much text and this many rows: the coordinator's memory is bounded whatever the table holds. */
const RECORD_BATCH_BYTES = MAX_RECORD_ROW_BYTES;
const RECORD_BATCH_ROWS = 500;
/** A start or stop announcement heard later than this after its instant is stale (a replay), ms. */
const START_EXPIRES_AFTER_MS = 5_000;
/** The sweep's id, its nonce: every key, job and start of the sweep is bound to it. */
const SWEEP_NONCE_BYTES = 12;

export interface Coordinator {
  workers: WorkerView[];
  /** The pool a sweep splits its levels over (the sweep's identity bound in). */
  forSweep(init: { spec: SweepSpec; state: RunState; model: string; dialect: DialectKind; runId: string; connections: number }): ClientThreads;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Connects to `databaseUrl` and waits up to `waitMs` for `n` live workers.
 * @throws SweepError('bad-input') naming the database when it does not answer, or the workers when too few are live.
 */
export async function startCoordinator(databaseUrl: string, n: number, waitMs: number, secret: Buffer): Promise<Coordinator> {
  let w: WorkerDb;
  const registry = registryKey(secret);
  // Workers whose own signed heartbeat is within the lost bound: a row anyone else wrote or kept fresh is not one.
  const liveWorkers = (db: WorkerDb): Promise<WorkerView[]> => signedLiveWorkers(db, registry);
  try {
    w = await openWorkerDb(databaseUrl, { supervise: true });
  } catch (err) {
    throw new SweepError('bad-input', `--database-url: ${(err as Error).message}`);
  }
  const until = Date.now() + waitMs;
  let live = await liveWorkers(w);
  while (live.length < n && Date.now() < until) {
    await sleep(POLL_MS);
    live = await liveWorkers(w);
  }
  if (live.length < n) {
    await w.close();
    const names = live.length === 0 ? 'none' : live.map((l) => sanitizeForTerminal(l.name)).join(', ');
    throw new SweepError('bad-input', `--workers ${n}: only ${live.length} live worker${live.length === 1 ? '' : 's'} after ${Math.round(waitMs / 1000)} s (${names}); start more with \`goodput worker --database-url …\` or lower --workers`);
  }
  const changed = new Set<() => void>();
  await w.listen(SHARE_CHANNEL, () => { for (const fn of changed) fn(); });
  const sweep = randomBytes(SWEEP_NONCE_BYTES).toString('hex');
  const key = new SweepKey(secret, sweep);
  // Rows of sweeps long finished or abandoned (their coordinator gone) are not kept past the retention.
  const keepHours = Number(process.env['GOODPUT_WORKER_ROWS_KEEP_HOURS'] ?? KEEP_HOURS_DEFAULT);
  await deleteOldSweeps(w, Number.isFinite(keepHours) && keepHours >= 0 ? keepHours : KEEP_HOURS_DEFAULT).catch(() => {});
  // Signed over the database's clock: workers take this sweep's jobs only while its beat is recent.
  await beatSweep(w, key);
  const beat = setInterval(() => { void beatSweep(w, key).catch(() => {}); }, COORDINATOR_BEAT_MS);
  const signedNotify = (m: { sweep: string; level: number; atMs?: number; stop?: boolean; expiresAtMs: number }) => w.notify(START_CHANNEL, { ...m, mac: key.sign('start', m) });

  /** Resolves on the next share notification or after POLL_MS, whichever first. */
  const nextChange = () => new Promise<void>((resolve) => {
    const done = () => { clearTimeout(t); changed.delete(done); resolve(); };
    const t = setTimeout(done, POLL_MS);
    changed.add(done);
  });

  /** The shares' rows signed by this sweep's workers, their figures in range; any other row is as if absent. */
  async function sharesOf(keys: readonly string[]): Promise<Map<string, { worker: string | null; detail: ShareDetail }>> {
    const rows = await w.shares.shares(keys, MAX_SHARE_DETAIL_BYTES);
    const out = new Map<string, { worker: string | null; detail: ShareDetail }>();
    for (const r of rows) {
      if (!key.verify('share', { share: r.share, worker: r.worker, detail: r.detail }, r.mac)) continue;
      const detail = shareDetailSchema.safeParse(r.detail);
      if (detail.success) out.set(r.share, { worker: r.worker, detail: detail.data });
    }
    return out;
  }

  function forSweep(init: { spec: SweepSpec; state: RunState; model: string; dialect: DialectKind; runId: string; connections: number }): ClientThreads {
    const { apiKey: _key, ...withoutKey } = init.spec;

    /** The worker's claim, with this process's own probe of the server when it agrees; null when the server answers the probe. */
    async function probeAgrees(claim: string): Promise<string | null> {
      const spec = init.spec;
      const again = await preflight({ baseUrl: spec.url, ...(spec.apiKey === undefined ? {} : { apiKey: spec.apiKey }) }, init.model, { timeoutMs: 3000 }).catch((err: unknown) => ({ ok: false as const, message: (err as Error).message }));
      return again.ok ? null : `${claim} (the coordinator's own probe agrees: ${again.message})`;
    }

    /** A level; the database going away anywhere in it ends the sweep as stopped, naming it, with the finished levels kept. */
    async function runLevel(level: LevelOnThreads): Promise<ThreadedLevel> {
      return await runLevelOnWorkers(level).catch((err: unknown) => {
        if (err instanceof SweepError) throw err;
        // Anything else here is the database going away: one line, not a stack.
        throw new SweepError('client-stopped', `the workers' database stopped answering during the concurrency-${level.concurrency} level (${(err as Error).message}); the workers reconnect when it is back`);
      });
    }

    async function runLevelOnWorkers(level: LevelOnThreads): Promise<ThreadedLevel> {
      // A worker lost at an earlier level is not waited for: the level is split over those still live.
      const count = Math.max(1, Math.min(level.count, (await liveWorkers(w)).length));
      const keys = Array.from({ length: count }, (_, i) => `${sweep}/${level.concurrency}/${i}`);
      const jobIds: string[] = [];
      // No row may be there before the jobs: anything at these shares now was written by someone else.
      await w.shares.clearShares(keys);
      // A job not taken by then would fail the level anyway: past it, no worker takes it.
      const expiresAtMs = Math.round(await w.nowMs()) + TAKE_WITHIN_MS;
      for (const [i, share] of keys.entries()) {
        const job: ShareJob = {
          share, sweep, index: i, count, concurrency: level.concurrency, requests: level.requests, promptOffset: level.promptOffset,
          spec: withoutKey, state: init.state, needsApiKey: init.spec.apiKey !== undefined, model: init.model, dialect: init.dialect, runId: init.runId, connections: Math.max(1, Math.ceil((init.connections - i) / count)),
          expiresAtMs,
        };
        // Signed: a worker takes only jobs a holder of the workers' secret wrote.
        const id = await w.boss.send(SHARE_QUEUE, { ...job, mac: key.sign('job', JSON.parse(JSON.stringify(job)) as unknown) }, { retryLimit: 0 });
        if (id !== null) jobIds.push(id);
      }
      let stoppedAt = Infinity;
      const stop = () => {
        stoppedAt = Date.now();
        void w.nowMs().then((now) => signedNotify({ sweep, level: level.concurrency, stop: true, expiresAtMs: Math.round(now) + START_EXPIRES_AFTER_MS })).catch(() => {});
      };
      level.signal.addEventListener('abort', stop, { once: true });
      const sentAt = Date.now();
      const lost = new Map<string, string>();
      const liveAtStart = (await liveWorkers(w)).map((x) => x.name);
      let started = false;
      try {
        // Every share ready (warm-ups sent, sockets open), or the level cannot start.
        for (;;) {
          const s = await sharesOf(keys);
          const bad = [...s.values()].find((x) => x.detail.status === 'refused' || x.detail.status === 'failed');
          if (bad) throw new SweepError('client-failed', (bad.detail as { reason: string }).reason);
          if (keys.every((k) => s.get(k)?.detail.status === 'ready')) break;
          if (level.signal.aborted) break;
          // A worker lost before the start, whether or not it took a share: its share would never be sent.
          const gone = await lostWorkers(liveAtStart);
          if (gone.length > 0 && (gone.some((g) => [...s.values()].some((x) => x.worker === g)) || s.size < keys.length)) {
            throw new SweepError('client-failed', `worker ${gone.join(', ')} stopped answering before the level at ${level.concurrency} started; the workers still live wait for the next sweep`);
          }
          if (Date.now() - sentAt > TAKE_WITHIN_MS) throw new SweepError('client-failed', `${keys.length - s.size} share(s) of the level were not taken by any worker within ${TAKE_WITHIN_MS / 1000} s`);
          await nextChange();
        }
        if (level.signal.aborted) return { records: [], shares: [], serverFailure: null, scheduledNs: null, waitedForSlot: 0 };
        await level.beforeMeasured();
        const own = await measureClockOffsetWell(() => w.nowMs(), wallClock);
        const problem = offsetProblem(own);
        if (problem) throw new SweepError('client-failed', `this machine: ${problem}`);
        const atMs = (await w.nowMs()) + START_AHEAD_MS;
        await signedNotify({ sweep, level: level.concurrency, atMs, expiresAtMs: Math.round(atMs) + START_EXPIRES_AFTER_MS });
        started = true;
        const deadline = Date.now() + shareDeadlineMs(init.spec, level, count);
        const startNs = localNs(atMs, { offsetMs: own.offsetMs, uncertaintyMs: own.uncertaintyMs, originMs: performance.timeOrigin });
        // Every share done, or its worker lost.
        let s = await sharesOf(keys);
        for (;;) {
          const open = keys.filter((k) => s.get(k)?.detail.status !== 'done' && !lost.has(k));
          const failed = keys.map((k) => s.get(k)).find((x) => x?.detail.status === 'failed' || x?.detail.status === 'refused');
          if (failed) throw new SweepError('client-failed', (failed.detail as { reason: string }).reason);
          if (open.length === 0) break;
          // Stopped: the workers' last reports are not waited for past the grace.
          if (Date.now() - stoppedAt > STOP_GRACE_MS) break;
          const gone = new Set(await lostWorkers(open.flatMap((k) => s.get(k)?.worker ?? [])));
          const late = Date.now() > deadline;
          for (const k of open) {
            const who = s.get(k)?.worker;
            if (who && gone.has(who)) lost.set(k, `worker ${who} stopped answering mid-level (not seen for ${WORKER_LOST_AFTER_MS / 1000} s)`);
            else if (late) lost.set(k, `worker ${who ?? '?'} did not finish share ${k} by its deadline (${Math.round(shareDeadlineMs(init.spec, level, count) / 1000)} s from its plan), whatever its heartbeat said`);
          }
          await nextChange();
          s = await sharesOf(keys);
        }
        // A worker saying the server stopped answering stops the sweep only once this process's own probe agrees.
        const claimed = keys.map((k) => s.get(k)?.detail).find((d): d is Extract<ShareDetail, { status: 'done' }> => d?.status === 'done' && d.serverFailure !== null)?.serverFailure ?? null;
        const confirmed = claimed === null || level.signal.aborted ? null : await probeAgrees(claimed);
        const shares = await Promise.all(keys.map(async (k, i): Promise<ShareRecords> => {
          const row = s.get(k);
          const detail = row?.detail;
          const clock = detail && 'clock' in detail ? detail.clock : null;
          const offsetNs = clock === null ? 0 : Math.round(startNs - localNs(atMs, clock));
          const { records, refused } = await shareRecords(k, init.spec, level, { index: i, count }, level.concurrency);
          // A lost worker's unfinished requests, and any a finished one never got into the database, fail naming it.
          const serverFailed = detail?.status === 'done' && detail.serverFailure !== null && confirmed !== null;
          // (A session ends at its first failed turn, so a finished share of sessions may rightly send fewer.)
          const missingIsLoss = lost.has(k) || refused !== null || init.spec.prompts.kind !== 'sessions';
          const why = lost.get(k) ?? refused ?? `worker ${row?.worker ?? '?'} finished its share but some of its records never reached the database`;
          if (!level.signal.aborted && !serverFailed && missingIsLoss) records.push(...lostRecords(init.spec, level, { index: i, count }, records, why, `worker ${row?.worker ?? ''}`, monotonicNs() - offsetNs));
          return {
            label: `worker ${row?.worker ?? `share ${i + 1}`}`, records, clockOffsetNs: offsetNs,
            loopDelayMs: detail?.status === 'done' ? detail.loopDelayMs : null, clientCpuPct: detail?.status === 'done' ? detail.busyPct : null,
            clockToDb: clock === null ? null : { offsetMs: clock.offsetMs, uncertaintyMs: clock.uncertaintyMs },
          };
        }));
        const merged = mergeShareRecords(shares);
        for (const r of merged) level.onRecord(r);
        const dones = keys.flatMap((k) => { const d = s.get(k)?.detail; return d?.status === 'done' ? [d] : []; });
        const plan = init.spec.prompts.kind === 'sessions' ? null : planOffsets(init.spec, level);
        return {
          records: merged, shares,
          serverFailure: confirmed,
          scheduledNs: plan === null ? null : plan.map((o) => startNs + o),
          waitedForSlot: dones.reduce((a, d) => a + d.waitedForSlot, 0),
        };
      } catch (err) {
        // Ready workers wait for a start that will not come: release them, and drop the jobs no one took.
        if (!started) stop();
        await w.boss.cancel(SHARE_QUEUE, jobIds).catch(() => {});
        throw err;
      } finally {
        level.signal.removeEventListener('abort', stop);
        // The level's jobs, done or not, leave the queue: a signed job kept as `completed` could be put back and run again.
        await w.boss.deleteJob(SHARE_QUEUE, jobIds).catch(() => {});
      }
    }
    return { size: Math.max(1, live.length), always: true, runLevel, close: async () => {} };
  }

  async function lostWorkers(names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const alive = new Set((await liveWorkers(w)).map((l) => l.name));
    return [...new Set(names)].filter((n) => !alive.has(n));
  }

  /**
   * A share's records, counted rather than believed: only rows at its own
   * sequence numbers (its warm-ups and its part of the level), each signed by
   * this sweep's worker, measured in the database before any is fetched (its
   * text, uncompressed), read in bounded batches and passing the record schema. Any
   * other row is refused naming it; with rows outside its sequence numbers the
   * share's records are not believed at all (the level becomes invalid, saying why).
   */
  async function shareRecords(k: string, spec: SweepSpec, level: LevelOnThreads, share: { index: number; count: number }, concurrency: number): Promise<{ records: RequestRecord[]; refused: string | null }> {
    const warm = spec.prompts.kind === 'sessions' ? 0 : spec.warmup;
    const seqList = [...Array.from({ length: warm }, (_, q) => q), ...shareSeqs(spec, level.concurrency, level.requests, share)];
    const extra = await w.shares.recordsOutside(k, seqList);
    if (extra.n > 0) return { records: [], refused: `worker_records holds ${extra.n} row(s) of share ${k} outside its sequence numbers (first: seq ${extra.first}): written by someone other than its worker, so none of the share's rows is believed` };
    const records: RequestRecord[] = [];
    let refused: string | null = null;
    const check = (r: RecordRow) => {
      const row = `worker_records row (share ${k}, seq ${r.seq})`;
      let why: string | null = null;
      if (r.size > MAX_RECORD_ROW_BYTES) why = `${row} holds ${r.size} bytes, above ${MAX_RECORD_ROW_BYTES}: refused unread`;
      else if (!key.verify('record', { share: k, record: r.record }, r.mac)) why = `${row} is not signed by this sweep's worker: refused`;
      else {
        const parsed = rawRecordSchema.safeParse(r.record);
        if (!parsed.success) why = `${row} is not a record: ${parsed.error.issues[0]?.path.join('.') || 'record'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
        else if (parsed.data.seq !== r.seq || parsed.data.concurrency !== concurrency) why = `${row} names seq ${parsed.data.seq} at level ${parsed.data.concurrency}: refused`;
        else records.push(parsed.data as RequestRecord);
      }
      if (why !== null) refused ??= why;
    };
    await w.shares.recordBatches(k, seqList, { maxRowBytes: MAX_RECORD_ROW_BYTES, batchBytes: RECORD_BATCH_BYTES, batchRows: RECORD_BATCH_ROWS }, (rows) => rows.forEach(check));
    return { records, refused };
  }

  async function close(): Promise<void> {
    clearInterval(beat);
    // None of the sweep's jobs stays on the queue, in any state: none can be run again.
    await deleteSweepJobs(w, sweep).catch(() => {});
    // The sweep's rows are not kept once it is over: its result holds the records.
    await w.shares.deleteSweepRecords(sweep).catch(() => {});
    await w.shares.deleteSweepShares(sweep).catch(() => {});
    await w.shares.deleteSweepBeat(sweep).catch(() => {});
    await w.close();
  }

  return { workers: live, forSweep, close };
}

/** Deletes the rows of sweeps whose coordinator has not been seen for `hours`. */
async function deleteOldSweeps(w: WorkerDb, hours: number): Promise<void> {
  for (const sweep of await w.shares.abandonedSweeps(hours)) {
    await deleteSweepJobs(w, sweep);
    await w.shares.deleteSweepRecords(sweep);
    await w.shares.deleteSweepShares(sweep);
  }
  await w.shares.deleteStaleSweepBeats(hours);
}

/**
 * How long a share may take from its start, ms: each of its connections sends
 * its part of the level one request after the other, each within the request
 * timeout; bounded at a day, plus slack.
 */
export function shareDeadlineMs(spec: SweepSpec, level: LevelOnThreads, count: number): number {
  const streams = Math.max(1, Math.floor(Math.min(level.concurrency, LIMITS.concurrency.max) / count));
  const perStream = Math.ceil((spec.warmup + level.requests / count) / streams);
  return Math.min(perStream * spec.timeouts.totalMs, 86_400_000) + SHARE_DEADLINE_SLACK_MS;
}

/** An open loop's whole schedule (offsets from the start, ns), or null for a closed loop. */
function planOffsets(spec: SweepSpec, level: LevelOnThreads): number[] | null {
  const plan = arrivalOps(spec.arrival).plan(level.concurrency, level.requests);
  return plan.kind === 'open' ? plan.offsetsNs : null;
}

/**
 * The requests of a lost worker's share that it never recorded, as failed records
 * naming it, at `atNs` on the worker's clock (when it was found lost): in flight or
 * never sent, the coordinator cannot tell, and counts them all.
 */
function lostRecords(spec: SweepSpec, level: LevelOnThreads, share: { index: number; count: number }, have: readonly RequestRecord[], why: string, client: string, at: number): RequestRecord[] {
  const atNs = Math.round(at);
  const seen = new Set(have.map((r) => r.seq));
  return shareSeqs(spec, level.concurrency, level.requests, share).filter((q) => !seen.has(q)).map((seq) => ({
    seq, concurrency: level.concurrency, warmup: false, targetSendNs: atNs, sendNs: atNs, headersNs: null, firstTokenNs: null, firstAnswerNs: null,
    chunkNs: [], chunkTokens: [], chunkTokensExact: false, endNs: atNs, outputTokens: 0, outputTokenSource: 'chunks', reasoningTokens: null,
    reasoningChunks: 0, promptTokens: null, cachedPromptTokens: null, finishReason: null, httpStatus: null,
    outcome: { kind: 'client-lost', message: why }, client,
  }));
}
