/**
 * A closed loop bounded by time (--duration), its streams opened over a ramp
 * (--ramp-up): each stream opens at its instant of the ramp, sends, waits for
 * its request to end and sends again, until the duration ends; what is in
 * flight then finishes and is recorded. A request meant to leave before the
 * ramp ended is a ramp request: marked, and kept out of every number as a
 * warm-up is. Each stream sends its own interleaved sequence numbers
 * (core's timedRequestIndex), so the shares of a level split over client
 * threads need no counter in common, and a record says which stream sent it.
 */
import { type LoadShape, type RequestRecord, slotOpensAtNs, timedRequestIndex, timedRequestsPerSlot } from '../core/index.js';
import type { Clock } from '../client/index.js';
import { waitUntil } from './open-loop.js';

export interface TimedLoop {
  shape: LoadShape;
  /** Streams of the whole level (every share's). */
  streams: number;
  /** This share's streams: `slots` of them from stream `firstSlot` on. */
  firstSlot: number;
  slots: number;
  /** The level's start instant, ns on `clock`: the first stream opens then, the duration counts from it. */
  startNs: number;
  clock: Clock;
  signal: AbortSignal;
  /** Sends measured request `index` (ramp: kept out of the numbers) meant to leave at `targetSendNs`. */
  send(index: number, targetSendNs: number, ramp: boolean): Promise<RequestRecord>;
}

/** Sends this share's streams of a timed level until its duration ends (or a stream has sent its share of a level's requests). */
export async function runTimedLoop(o: TimedLoop): Promise<void> {
  const endNs = o.startNs + o.shape.durationS * 1e9;
  const rampEndNs = o.startNs + o.shape.rampUpS * 1e9;
  const most = timedRequestsPerSlot(o.streams);
  const stream = async (slot: number) => {
    let targetSendNs = o.startNs + slotOpensAtNs(slot, o.streams, o.shape.rampUpS);
    await waitUntil(o.clock, targetSendNs, o.signal);
    // A request is sent when it is meant to leave before the end, however late the loop reads its clock: a stream's
    // first is meant at its opening, inside the duration, so a level too short for the clock still sends one per stream.
    for (let k = 0; k < most && !o.signal.aborted && targetSendNs < endNs; k++) {
      const r = await o.send(timedRequestIndex(slot, k, o.streams), targetSendNs, targetSendNs < rampEndNs);
      // Closed loop: the replacement is meant to leave the moment this one ended.
      targetSendNs = r.endNs ?? o.clock();
    }
  };
  await Promise.all(Array.from({ length: o.slots }, (_, k) => stream(o.firstSlot + k)));
}
