/** The two step timings, driven by a manual scheduler: due times only, no wall clock. */
import { describe, expect, it } from 'vitest';
import { BatchEngine } from './batch-engine.js';
import type { TimedTask } from './min-heap.js';
import { simProfileSchema } from './profile-schema.js';
import type { Scheduler } from './scheduler.js';
import type { Emission, SequenceEvents } from './sequence.js';

/** Runs tasks in due order when told to; enough of Scheduler for the engine. */
class ManualScheduler {
  private tasks: TimedTask[] = [];
  private order = 0;
  at(dueMs: number, run: (dueMs: number) => void): TimedTask {
    const t: TimedTask = { dueMs, order: this.order++, cancelled: false, run };
    this.tasks.push(t);
    return t;
  }
  cancel(t: TimedTask | null): void {
    if (t) t.cancelled = true;
  }
  runAll(limit = 10_000): void {
    for (let i = 0; i < limit; i++) {
      this.tasks.sort((a, b) => a.dueMs - b.dueMs || a.order - b.order);
      const t = this.tasks.shift();
      if (t === undefined) return;
      if (!t.cancelled) t.run(t.dueMs);
    }
    throw new Error('the engine never went idle');
  }
}

function drive(stepTiming: 'independent' | 'batched', admissionsMs: number[], outputTokens = 4, stepExtraMs: number[] = []) {
  const profile = simProfileSchema.parse({ stepTiming, prefillBaseMs: 5, prefillMsPerToken: 0, decodeStepMs: 4, decodeMsPerExtraSeq: 0 });
  const scheduler = new ManualScheduler();
  const engine = new BatchEngine(profile, scheduler as unknown as Scheduler, null);
  const due: number[][] = admissionsMs.map(() => []);
  admissionsMs.forEach((atMs, i) => {
    const events: SequenceEvents = {
      onAdmit: () => {},
      onEmit: (e: Emission) => {
        (due[i] as number[]).push(e.dueMs);
        return true;
      },
    };
    const extra = stepExtraMs[i] ?? 0;
    engine.submit({ promptTokens: 1, kvTokens: 10, blockKeys: [], outputTokens, stall: null, ...(extra > 0 ? { stepExtraMs: extra } : {}) }, events, atMs);
  });
  scheduler.runAll();
  return due;
}

describe('step timing', () => {
  it('independent: each stream on its own cadence from its own admission', () => {
    expect(drive('independent', [0, 3])).toEqual([
      [5, 9, 13, 17],
      [8, 12, 16, 20],
    ]);
  });

  it('batched: one step loop; a late stream joins at the next step, and every step writes all streams at once', () => {
    // Steps at 5, 9, 13 …; the second stream's prefill ends at 8, so its first token leaves with the step at 9.
    expect(drive('batched', [0, 3])).toEqual([
      [5, 9, 13, 17],
      [9, 13, 17, 21],
    ]);
  });

  it("a slower LoRA adapter's stream: its own steps longer by its extra time, the other's unchanged", () => {
    expect(drive('independent', [0, 0], 4, [0, 3])).toEqual([
      [5, 9, 13, 17],
      [5, 12, 19, 26],
    ]);
    // On one step loop it is ready 5 ms after each emission: it misses a 4 ms step and leaves with the next;
    // alone once the other has finished, the loop restarts at its ready time (21 + 5).
    expect(drive('batched', [0, 0], 4, [0, 5])).toEqual([
      [5, 9, 13, 17],
      [5, 13, 21, 26],
    ]);
  });

  it('batched: an idle engine restarts its loop at the next ready first token', () => {
    expect(drive('batched', [0, 100], 2)).toEqual([
      [5, 9],
      [105, 109],
    ]);
  });
});
