/**
 * The open-loop driver: every request has a target send time from the arrival
 * schedule and leaves at that time whether or not earlier ones have finished,
 * up to `maxInFlight` at once. A request due while the limit is reached waits
 * for a slot; its targetSendNs is then the moment the slot freed, so send lag
 * stays our own turnaround, and the wait is reported apart (scheduledNs).
 * Waiting is a timer to within a couple of ms, then setImmediate turns, so
 * sends leave on time without blocking I/O. While there is slack before the next
 * send, the requests due soon after it are prepared (their prompts built), so a
 * burst that follows a quiet spell only has to send.
 */
import type { RequestRecord } from '../core/index.js';
import type { Clock } from '../client/index.js';

/** Below this wait (ms) the driver yields with setImmediate instead of arming a timer. */
const SPIN_BELOW_MS = 2;
/** Requests due within this long of the next send are prepared ahead, ns… */
const PREPARE_HORIZON_NS = 100e6;
/** …at most this many at once (their prompts are held until sent)… */
const PREPARE_MAX = 256;
/** …and only while the next send is at least this far off, ns. */
const PREPARE_SLACK_NS = 1e6;

export interface OpenLoopInput {
  /** Target send offsets from `startNs`, ns, ascending. */
  offsetsNs: readonly number[];
  maxInFlight: number;
  startNs: number;
  clock: Clock;
  signal: AbortSignal;
  /** Builds request i ahead of its send (optional); send(i) then uses what it built. */
  prepare?(i: number): void;
  /** Sends request i (0-based within the measured requests; a whole session for sessions); resolves when it ends. */
  send(i: number, targetSendNs: number): Promise<Pick<RequestRecord, 'endNs'>>;
}

export interface OpenLoopRun {
  /** Scheduled send time of each request, ns (startNs + offset). */
  scheduledNs: number[];
  /** Requests that had to wait for a free slot. */
  waitedForSlot: number;
}

/** Resolves at `dueNs` on `clock` (a timer to within a couple of ms, then setImmediate turns), or when `signal` aborts. */
export function waitUntil(clock: Clock, dueNs: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const step = () => {
      if (signal.aborted) return resolve();
      const leftMs = (dueNs - clock()) / 1e6;
      if (leftMs <= 0) return resolve();
      if (leftMs < SPIN_BELOW_MS) setImmediate(step);
      // A timer holds at most 2^31 − 1 ms (Node fires a longer one at once, with a warning): a longer wait re-arms.
      else setTimeout(step, Math.min(Math.floor(leftMs - SPIN_BELOW_MS / 2), 2 ** 31 - 1));
    };
    step();
  });
}

/** Runs the schedule; resolves when every sent request has ended (or the signal stopped the rest). */
export async function runOpenLoop(input: OpenLoopInput): Promise<OpenLoopRun> {
  const scheduledNs = input.offsetsNs.map((o) => input.startNs + o);
  const inFlight = new Set<Promise<Pick<RequestRecord, 'endNs'>>>();
  const waiters: Array<(freedNs: number) => void> = [];
  let waitedForSlot = 0;
  let prepared = 0;
  for (let i = 0; i < scheduledNs.length && !input.signal.aborted; i++) {
    const due = scheduledNs[i] as number;
    prepared = Math.max(prepared, i);
    while (
      input.prepare &&
      prepared < scheduledNs.length &&
      prepared - i < PREPARE_MAX &&
      (scheduledNs[prepared] as number) <= due + PREPARE_HORIZON_NS &&
      input.clock() < due - PREPARE_SLACK_NS
    )
      input.prepare(prepared++);
    await waitUntil(input.clock, due, input.signal);
    if (input.signal.aborted) break;
    let targetSendNs = due;
    if (inFlight.size >= input.maxInFlight) {
      waitedForSlot++;
      targetSendNs = await new Promise<number>((resolve) => waiters.push(resolve));
      if (input.signal.aborted) break;
    }
    const p = input.send(i, targetSendNs);
    inFlight.add(p);
    void p.then((r) => {
      inFlight.delete(p);
      waiters.shift()?.(r.endNs ?? input.clock());
    });
  }
  await Promise.all(inFlight);
  return { scheduledNs, waitedForSlot };
}
