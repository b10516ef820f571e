/** A fleet run's breakdown under the terminal table: one line per level and target, with the routing policy; nothing for one target. */
import { describe, expect, it } from 'vitest';
import type { TargetLevel } from '../core/index.js';
import { contract, level, resultOf } from '../test-support/receipt-fixture.js';
import { FLEET_CAPTION } from '../web/index.js';
import { fleetLines } from './render-fleet.js';

const target = (url: string, tokS: number, ttft: number): TargetLevel => ({
  url,
  requests: 8,
  succeeded: 8,
  failed: 0,
  outputTokensTotal: 256,
  throughputTokS: tokS,
  ttftMs: { p50: ttft, p99: ttft * 2 },
  e2eMs: { p50: 700, p99: 900 },
});
const figures = { tokS: 100, perReq: 50, ttft: [40, 60] as [number, number], tpot: 10, e2e: 700 };

describe('fleetLines', () => {
  it('prints each target of each level, its address cleaned', () => {
    const levels = [{ ...level({ c: 4, ...figures }), targets: [target('http://a:8000', 75, 40), target('http://b:8000/\u001b[31m', 25, 160)] }];
    const result = resultOf(contract({ label: 'fleet' }), levels);
    expect(fleetLines({ ...result, run: { ...result.run, fleet: { urls: ['http://a:8000', 'http://b:8000'], route: 'session' } } })).toEqual([
      '',
      `${FLEET_CAPTION}, routed session, by level:`,
      '  4 streams: http://a:8000 · Requests 8 · Failed 0 · Throughput tok/s 75.0 · Share 75.0 % · TTFT p50 ms 40.0 · TTFT p99 ms 80.0 · E2E p50 ms 700.0',
      expect.stringMatching(/^ {2}4 streams: http:\/\/b:8000\/\S* · Requests 8 · Failed 0 · Throughput tok\/s 25\.0 · Share 25\.0 % · TTFT p50 ms 160\.0/),
    ]);
    expect(fleetLines(result).join('\n')).not.toContain('\u001b');
    expect(fleetLines(resultOf(contract({ label: 'plain' }), [level({ c: 1, ...figures })]))).toEqual([]);
  });
});
