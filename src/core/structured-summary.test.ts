import { describe, expect, it } from 'vitest';
import { rec } from '../test-support/records.js';
import type { StructuredRecord } from './record.js';
import { summarizeStructured } from './structured-summary.js';

const r = (ttft: number, structured: StructuredRecord, more = {}) => ({ ...rec({ sendMs: 0, chunksMs: [ttft, ttft + 10, ttft + 20], ...more }), structured });
const valid: StructuredRecord = { schema: true, verdict: 'valid', problem: null };
const control: StructuredRecord = { schema: false, verdict: null, problem: null };

describe('structured-output summary', () => {
  it('counts verdicts of requests sent with the schema and compares their medians with the controls', () => {
    const s = summarizeStructured([
      r(120, valid),
      r(140, valid),
      r(160, { schema: true, verdict: 'invalid', problem: 'x' }),
      r(200, { schema: true, verdict: 'unparsed', problem: 'y' }),
      r(100, control),
      r(100, control),
      r(999, valid, { warmup: true }),
      r(5, valid, { outcome: { kind: 'http-error', status: 500, message: 'x' } }),
    ]);
    expect(s).toMatchObject({ requests: 4, valid: 2, invalid: 1, unparsed: 1, validRate: 0.5, controls: 2 });
    // Schema TTFT p50 = 150 (of 120, 140, 160, 200); controls 100 → +50 %.
    expect(s?.cost.ttftMs).toEqual({ schemaP50: 150, controlP50: 100, deltaPct: 50 });
    expect(s?.cost.tpotMs).toEqual({ schemaP50: 10, controlP50: 10, deltaPct: 0 });
  });
  it('is null without structured records; a cost is null without controls', () => {
    expect(summarizeStructured([rec({ chunksMs: [1] })])).toBeNull();
    expect(summarizeStructured([r(100, valid)])?.cost.ttftMs).toBeNull();
  });
});
