/**
 * A closed loop: `slots` streams share the requests [from, to), each sending
 * its next request the moment its last one ended. A request that ended well is
 * replaced from the client's end hook, as its end is read and before its record
 * is built, so a burst of ends (equal-length streams finish together) is
 * replaced at the pace of the writes, not of the records; any other end (a
 * failure, a paced send) is replaced once its record is in. Resolves when every
 * request's record is in; rejects as soon as a send does.
 *
 * Each send asks for the request one round later (its index + slots) to be
 * built ahead, in a quiet moment: equal-length streams end as they began, all
 * together, and a burst of ends then pays only the writes. The client's quiet
 * lane for this waits out a whole burst; in the records' lane (100 ms, shorter
 * than a burst of 1,024 ends) the builds landed inside the burst and were
 * measured to keep fewer requests open.
 */
import type { RequestRecord } from '../core/index.js';
import type { Clock } from '../client/index.js';

export interface ClosedLoop {
  slots: number;
  from: number;
  to: number;
  startNs: number;
  clock: Clock;
  signal: AbortSignal;
  /** Sends request `i`, meant to leave at `targetSendNs`; `onEnded`, when given, hears its good end first. */
  send(i: number, targetSendNs: number, onEnded?: (endNs: number) => void): Promise<RequestRecord>;
  /** Replace from the end hook (false: only once each record is in, as a paced loop must). */
  early: boolean;
  /** Builds request `i` ahead of its send, when the loop is quiet; absent: each is built as it leaves. */
  prepareAhead?(i: number): void;
}

export function runClosedLoop(o: ClosedLoop): Promise<void> {
  let next = o.from;
  let open = 0;
  const over = () => next >= o.to || o.signal.aborted;
  return new Promise<void>((resolve, reject) => {
    const go = (targetSendNs: number): void => {
      if (over()) {
        if (open === 0) resolve();
        return;
      }
      const i = next++;
      open++;
      if (o.prepareAhead !== undefined && i + o.slots < o.to) o.prepareAhead(i + o.slots);
      let replaced = false;
      const onEnded = o.early
        ? (endNs: number) => {
            replaced = true;
            go(endNs);
          }
        : undefined;
      o.send(i, targetSendNs, onEnded).then((r) => {
        open--;
        if (!replaced) go(r.endNs ?? o.clock());
        else if (open === 0 && over()) resolve();
      }, reject);
    };
    for (let s = 0; s < o.slots; s++) go(o.startNs);
    if (open === 0) resolve();
  });
}
