import { describe, expect, it } from 'vitest';
import { serverFingerprint } from './server-fingerprint.js';

const f32 = {
  object: 'list',
  data: [{ id: 'stories260K', object: 'model', created: 1796223944, owned_by: 'llamacpp', meta: { n_ctx: 1024, size: 1171200, ftype: '(guessed) all F32' } }],
};

describe('serverFingerprint', () => {
  it('ignores the call time and the order of entries', () => {
    const later = { data: [{ ...f32.data[0], created: 1796229999 }] };
    expect(serverFingerprint(later)).toBe(serverFingerprint(f32));
    const two = { data: [{ id: 'b' }, { id: 'a' }] };
    expect(serverFingerprint(two)).toBe(serverFingerprint({ data: [{ id: 'a' }, { id: 'b' }] }));
  });

  it('changes with what the weights are', () => {
    const q8 = { data: [{ ...f32.data[0], meta: { ...f32.data[0]!.meta, size: 311296, ftype: 'Q8_0' } }] };
    expect(serverFingerprint(q8)).not.toBe(serverFingerprint(f32));
    expect(serverFingerprint(f32)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is null without a data array', () => {
    expect(serverFingerprint({ models: [] })).toBeNull();
    expect(serverFingerprint('nope')).toBeNull();
  });
});
