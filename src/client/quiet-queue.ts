/**
 * Work that can wait for a quiet moment: the records of streams that ended
 * well, whose replacements already left. A burst of ends (equal-length streams
 * finish together) is read and replaced first; the queue runs once no work has
 * come for a millisecond, or its oldest item has waited `maxWaitMs`, a few items
 * per turn of the loop so reads are never held up for long. The records'
 * instants were stamped as the bytes came: waiting changes when a record is
 * seen, never what it says.
 */

/** Items run per turn of the loop, then the loop reads what came meanwhile. */
const PER_TURN = 32;
/** The queue waits for this long without new work, ms. */
const QUIET_MS = 1;

export interface QuietQueue {
  push(work: () => void): void;
}

/** A queue whose oldest item waits about `maxWaitMs` at most; `now` in ms. */
export function quietQueue(maxWaitMs = 100, now: () => number = () => performance.now()): QuietQueue {
  let items: Array<{ at: number; work: () => void }> = [];
  let head = 0;
  let lastAt = 0;
  let scheduled = false;
  const schedule = (soon: boolean) => {
    if (scheduled) return;
    scheduled = true;
    if (soon) setImmediate(run);
    else setTimeout(run, QUIET_MS);
  };
  function run(): void {
    scheduled = false;
    const t = now();
    const oldest = items[head];
    if (oldest === undefined) return;
    if (t - lastAt < QUIET_MS && t - oldest.at < maxWaitMs) return schedule(false);
    for (let n = 0; n < PER_TURN && head < items.length; n++) (items[head++] as { work: () => void }).work();
    if (head === items.length) {
      items = [];
      head = 0;
    } else schedule(true);
  }
  return {
    push(work) {
      lastAt = now();
      items.push({ at: lastAt, work });
      schedule(false);
    },
  };
}
