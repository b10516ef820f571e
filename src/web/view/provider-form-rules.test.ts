/**
 * The Start form's provider fields, read in the page before anything is sent:
 * retries (a count, 0 or off), the longest wait, a rate limit's text (passed to
 * the API's parser, blank: none) and an extra body (a JSON object, blank: none).
 * Their bounds are the limits table's rows the catalogue names.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS, type FormCheck, runOption } from '../../core/index.js';
import { type FieldRule, checkField } from './form-rules.js';

/** The rule the form reads a field by: the option's limits row and default, as the run form takes them. */
function rule(key: string, check: FormCheck, name: string): FieldRule {
  const v = runOption(key).value;
  const limit = v.type === 'number' ? v.limit : undefined;
  return { check, name, max: limit === undefined ? Number.MAX_SAFE_INTEGER : LIMITS[limit].max, example: Number(runOption(key).default), positive: false };
}

describe('the provider fields of the Start form', () => {
  it('reads retries as a count from 0 to the limit, or off', () => {
    const r = rule('retry', 'retries', 'Retries');
    expect(r.max).toBe(LIMITS.retryAttempts.max);
    expect(checkField(r, '2')).toEqual({ ok: true, value: 2 });
    expect(checkField(r, 'off')).toEqual({ ok: true, value: 0 });
    expect(checkField(r, '0')).toEqual({ ok: true, value: 0 });
    expect(checkField(r, '11')).toEqual({ ok: false, message: 'Retries must be at most 10.' });
    expect(checkField(r, 'many')).toEqual({ ok: false, message: 'Retries must be a whole number from 0 to 10, e.g. 3, or off.' });
  });

  it('reads the longest wait as seconds within the limit', () => {
    const r = rule('retryMaxWaitS', 'seconds', 'Longest retry wait');
    expect(checkField(r, '7.5')).toEqual({ ok: true, value: 7.5 });
    expect(checkField(r, '601')).toEqual({ ok: false, message: 'Longest retry wait must be at most 600 s.' });
    expect(checkField(r, '-1')).toEqual({ ok: false, message: 'Longest retry wait must be a number of seconds, 0 or more, e.g. 60.' });
  });

  it("passes a rate limit's text on for the API's parser; blank is none", () => {
    const r = rule('rateLimit', 'text', 'Rate limit');
    expect(checkField(r, ' rpm=60 ')).toEqual({ ok: true, value: 'rpm=60' });
    expect(checkField(r, '')).toEqual({ ok: true, value: null });
  });

  it('reads the extra body as a JSON object; blank is none', () => {
    const r = rule('extraBody', 'json-object', 'Extra body');
    expect(checkField(r, '{"priority":1}')).toEqual({ ok: true, value: { priority: 1 } });
    expect(checkField(r, '  ')).toEqual({ ok: true, value: null });
    expect(checkField(r, '[1]')).toEqual({ ok: false, message: 'Extra body must be a JSON object, e.g. {"priority":1}.' });
    expect(checkField(r, '{priority')).toEqual({ ok: false, message: 'Extra body is not JSON: write an object, e.g. {"priority":1}.' });
  });
});

describe('the optional numbers of the Start form (when a request is given up)', () => {
  const ms: FieldRule = { check: 'optional-number', name: 'Cancel after', max: LIMITS.cancelAfterMs.max, example: Number.NaN, positive: true, integer: true };
  const share: FieldRule = { check: 'optional-number', name: 'Share cancelled', max: 1, example: Number.NaN, positive: true };

  it('reads blank as none, and a number within the bounds the option declares', () => {
    expect(checkField(ms, ' ')).toEqual({ ok: true, value: null });
    expect(checkField(ms, '1500')).toEqual({ ok: true, value: 1500 });
    expect(checkField(share, '0.25')).toEqual({ ok: true, value: 0.25 });
    expect(checkField(share, '1')).toEqual({ ok: true, value: 1 });
  });

  it('refuses a number outside them, naming the field', () => {
    expect(checkField(ms, '1.5')).toEqual({ ok: false, message: 'Cancel after must be a whole number above 0, or blank for none.' });
    expect(checkField(ms, '0')).toEqual({ ok: false, message: 'Cancel after must be a whole number above 0, or blank for none.' });
    expect(checkField(ms, '3600001')).toEqual({ ok: false, message: 'Cancel after must be at most 3600000.' });
    expect(checkField(share, 'half')).toEqual({ ok: false, message: 'Share cancelled must be a number above 0, or blank for none.' });
    expect(checkField(share, '1.5')).toEqual({ ok: false, message: 'Share cancelled must be at most 1.' });
  });
});
