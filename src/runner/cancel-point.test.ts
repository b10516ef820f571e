import { describe, expect, it } from 'vitest';
import { useSimulators } from '../test-support/simulators.js';
import { cancelPointFor, cancelSpecSchema } from './cancel-point.js';
import { runSweep } from './run-kinds.js';
import type { SweepEvent } from './sweep-events.js';
import { sweepSpecSchema } from './sweep-spec.js';

const sim = useSimulators({ port: 0, prefillBaseMs: 1, prefillMsPerToken: 0, decodeStepMs: 1, decodeMsPerExtraSeq: 0 });

const issues = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  r.error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('which requests are given up', () => {
  it('every measured request with no share given, never a warm-up', () => {
    const cancel = cancelSpecSchema.parse({ afterMs: 200 });
    expect(cancel).toEqual({ afterMs: 200, afterTokens: null, fraction: 1 });
    expect([0, 1, 2, 3, 4].map((seq) => cancelPointFor(cancel, 2, seq))).toEqual([
      undefined,
      undefined,
      { afterMs: 200, afterTokens: null },
      { afterMs: 200, afterTokens: null },
      { afterMs: 200, afterTokens: null },
    ]);
    expect(cancelPointFor(null, 0, 3)).toBeUndefined();
  });

  it('a share spread evenly over the measured sequence, the same on every client that computes it', () => {
    const cancel = cancelSpecSchema.parse({ afterTokens: 16, fraction: 0.25 });
    const picked = Array.from({ length: 16 }, (_, m) => cancelPointFor(cancel, 1, m + 1) !== undefined);
    expect(picked.map((p) => (p ? 1 : 0)).join('')).toBe('0001000100010001');
  });

  it('refuses a cancel with no point, a share outside (0, 1] and a time past its limit, naming the field', () => {
    expect(issues(cancelSpecSchema.safeParse({ fraction: 0.5 }))).toEqual([['', 'cancel needs afterMs or afterTokens (when a request is given up)']]);
    expect(issues(cancelSpecSchema.safeParse({ afterMs: 10, fraction: 1.5 }))).toEqual([['fraction', 'cancel fraction must be at most 1']]);
    expect(issues(cancelSpecSchema.safeParse({ afterMs: 3_600_001 }))).toEqual([
      ['afterMs', 'cancel after ms 3600001 is above the limit of 3600000 ms after its send a request is given up on purpose (--cancel-after-ms)'],
    ]);
    expect(issues(cancelSpecSchema.safeParse({ afterTokens: 2.5 }))).toEqual([['afterTokens', 'cancel after tokens must be a whole number']]);
  });

  it('refuses cancelling turns of sessions, whose next turn carries the answer', () => {
    const spec = {
      url: 'http://127.0.0.1:1',
      levels: [1],
      warmup: 0,
      prompts: {
        kind: 'sessions',
        sessions: [
          {
            turns: [
              { p: 8, o: 8 },
              { p: 8, o: 8 },
            ],
            thinkMs: [0],
          },
        ],
      },
      cancel: { afterMs: 100 },
    };
    const r = sweepSpecSchema.safeParse(spec);
    expect(issues(r)).toEqual([['cancel', 'requests are cancelled one by one, not in sessions (each turn carries the answer before it)']]);
  });
});

describe('a sweep that gives requests up', () => {
  it('never counts them as failed in its progress, and its records say which were given up', async () => {
    const s = await sim();
    const events: SweepEvent[] = [];
    const spec = { url: s.url, levels: [2], outputTokens: 64, promptTokens: 8, requestsPerLevel: 6, warmup: 1, cancel: { afterTokens: 4, fraction: 0.5 } };
    const result = await runSweep(spec, { onEvent: (e) => void events.push(e) });
    const progress = events.flatMap((e) => (e.kind === 'request' && !e.warmup ? [e] : []));
    expect(progress.at(-1)).toMatchObject({ done: 6, failed: 0 });
    expect(result.levels[0]).toMatchObject({ succeeded: 3, failed: 0, cancelled: { requests: 3, afterTokens: 3 } });
  });
});
