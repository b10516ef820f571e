/** Strict JSON: valid text parses as JSON.parse does; a duplicated key anywhere is refused by its path. */
import { describe, expect, it } from 'vitest';
import { parseStrictJson } from './strict-json.js';

describe('parseStrictJson', () => {
  it('parses what JSON.parse parses, escapes and nesting included', () => {
    const text = '{"a":[1,{"b":"x\\"y","c":null}],"d":{"e":-1.5e3,"f":true},"g":[]}';
    expect(parseStrictJson(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });
  it('refuses a duplicated key, naming its path', () => {
    expect(parseStrictJson('{"title":"a","title":"b"}')).toMatchObject({ ok: false, problem: expect.stringMatching(/^states the key title twice/) });
    expect(parseStrictJson('{"x":[{"k":1},{"k":1,"k":2}]}')).toMatchObject({ ok: false, problem: expect.stringContaining('x[1].k twice') });
  });
  it('keeps keys of different objects apart, and refuses invalid JSON', () => {
    expect(parseStrictJson('{"a":{"k":1},"b":{"k":2}}').ok).toBe(true);
    expect(parseStrictJson('{"a":')).toMatchObject({ ok: false, problem: expect.stringMatching(/^is not valid JSON/) });
  });
});
