import { describe, expect, it } from 'vitest';
import { VLLM_SPEC_DECODE, parsePrometheusText, seriesList, seriesValue } from '../core/index.js';
import { DraftModel } from './draft-model.js';
import { simProfileSchema } from './profile-schema.js';
import { applyFlags } from './sim-flags.js';

describe('the draft model', () => {
  it('accepts each position with the given chance once the one before was, seeded, and counts as vLLM does', () => {
    const a = new DraftModel(4, 0.7, 1);
    const b = new DraftModel(4, 0.7, 1);
    const steps = Array.from({ length: 20_000 }, () => a.verify());
    expect(Array.from({ length: 20_000 }, () => b.verify())).toEqual(steps);
    expect(Math.min(...steps)).toBe(1);
    expect(Math.max(...steps)).toBe(5);
    expect(a.drafts).toBe(20_000);
    expect(a.draftTokens).toBe(80_000);
    // Each step emits its accepted drafts plus the bonus token.
    expect(steps.reduce((x, y) => x + y, 0)).toBe(a.drafts + a.acceptedTokens);
    expect(a.acceptedPerPos.reduce((x, y) => x + y, 0)).toBe(a.acceptedTokens);
    // Position i is reached only through every position before it: 0.7, 0.49, 0.343, 0.2401 of the drafts.
    const rates = a.acceptedPerPos.map((n) => n / a.drafts);
    [0.7, 0.49, 0.343, 0.2401].forEach((p, i) => expect(Math.abs((rates[i] as number) - p)).toBeLessThan(0.015));
    expect(Math.abs(1 + a.acceptedTokens / a.drafts - 2.7731)).toBeLessThan(0.03);
    const other = new DraftModel(4, 0.7, 2);
    expect(Array.from({ length: 50 }, () => other.verify())).not.toEqual(steps.slice(0, 50));
  });

  it("renders vLLM's four counters, per position labelled", () => {
    const d = new DraftModel(3, 1, 7);
    d.verify();
    d.verify();
    const scrape = parsePrometheusText(d.render('model_name="m"'));
    expect(scrape.badLines).toEqual([]);
    expect(seriesValue(scrape, VLLM_SPEC_DECODE.drafts, { combine: 'sum' })).toBe(2);
    expect(seriesValue(scrape, VLLM_SPEC_DECODE.draftTokens, { combine: 'sum' })).toBe(6);
    expect(seriesValue(scrape, VLLM_SPEC_DECODE.acceptedTokens, { combine: 'sum' })).toBe(6);
    expect(seriesList(scrape, VLLM_SPEC_DECODE.acceptedPerPos).map((s) => [s.labels['position'], s.value])).toEqual([
      ['0', 2],
      ['1', 2],
      ['2', 2],
    ]);
    expect(scrape.types.get('vllm:spec_decode_num_drafts')).toBe('counter');
  });

  it('is set by --spec-decode-positions and --spec-accept', () => {
    const profile = simProfileSchema.parse(applyFlags({}, { specDecodePositions: '4', specAccept: '0.6' }));
    expect(profile.specDecode).toEqual({ positions: 4, accept: 0.6 });
  });

  it('is refused beside tokensPerChunk, which it replaces', () => {
    const r = simProfileSchema.safeParse({ tokensPerChunk: 2, specDecode: { positions: 4 } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({
      path: ['specDecode', 'positions'],
      message: 'a draft model sets the tokens of each chunk itself: leave tokensPerChunk at 1',
    });
    expect(simProfileSchema.safeParse({ specDecode: { positions: 65 } }).success).toBe(false);
    // Without a draft model the profile is as it was before there was one: its account hash is unchanged.
    expect('specDecode' in simProfileSchema.parse({})).toBe(false);
    expect(simProfileSchema.parse({ specDecode: { positions: 4 } }).specDecode).toEqual({ positions: 4, accept: 0.7 });
  });
});
