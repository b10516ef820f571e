import { describe, expect, it } from 'vitest';
import { levelResultSchema } from './result-schema.js';
import { toolCallSummarySchema } from './tool-call-summary.js';
import { level } from '../test-support/receipt-fixture.js';

const summary = {
  requests: 10,
  valid: 7,
  invalid: 1,
  unparsed: 1,
  missing: 0,
  none: 1,
  parseRate: 8 / 9,
  validRate: 7 / 9,
  ttftToolMs: null,
  argumentsMs: null,
  argumentTokensMean: null,
};
const issues = (x: unknown) => toolCallSummarySchema.safeParse(x).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`) ?? [];

describe('a stored tool-call summary is checked, not believed', () => {
  it('accepts one whose verdicts are its requests and whose rates are theirs', () => {
    expect(issues(summary)).toEqual([]);
    expect(issues({ ...summary, requests: 1, valid: 0, invalid: 0, unparsed: 0, none: 1, parseRate: null, validRate: null })).toEqual([]);
  });

  it('refuses verdicts that do not add up, and rates the verdicts do not give, naming the field', () => {
    expect(issues({ ...summary, valid: 70 })).toContain('requests: is 10, but the verdicts count 73');
    expect(issues({ ...summary, validRate: 1 })).toEqual([`validRate: is 1, but the verdicts give ${7 / 9}`]);
    expect(issues({ ...summary, parseRate: null })).toEqual([`parseRate: is null, but the verdicts give ${8 / 9}`]);
  });

  it('a level refuses more tool-call requests than it had successful requests', () => {
    const base = level({ c: 1, tokS: 100, perReq: 50, ttft: [10, 20], tpot: 5, e2e: 300 });
    expect(levelResultSchema.safeParse({ ...base, toolCalls: { ...summary, requests: 8, valid: 5, parseRate: 6 / 7, validRate: 5 / 7 } }).success).toBe(true);
    const bad = levelResultSchema.safeParse({ ...base, succeeded: 5, toolCalls: summary });
    expect(bad.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toContain(
      "toolCalls.requests: is 10, more than the level's 5 successful requests",
    );
  });
});
