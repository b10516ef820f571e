import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true }, u: undefined })).toBe('{"a":{"c":true,"d":[1,"x",null]},"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });
  it('refuses values JSON cannot hold', () => {
    expect(() => canonicalJson({ x: Infinity })).toThrow(/Infinity/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/function/);
  });
});
