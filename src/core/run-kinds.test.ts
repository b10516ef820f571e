/**
 * The run-kind table: each kind is filed under its own name, no endpoint
 * belongs to two kinds, and a run's kind is read from its endpoint exactly as
 * isPoolingResult reads it (no endpoint, or one no kind claims: text).
 */
import { describe, expect, it } from 'vitest';
import { POOLING_ENDPOINTS } from './pooling-record.js';
import { isPoolingResult } from './pooling-schema.js';
import { RUN_KINDS, RUN_KIND_NAMES, TEXT_ENDPOINTS, kindOfEndpoint, kindOfResult } from './run-kinds.js';
import { TRANSCRIPTION_ENDPOINTS } from './transcription.js';

describe('run kinds', () => {
  it('files every kind under its own name, text generation, pooling and speech to text', () => {
    expect(RUN_KIND_NAMES).toEqual(['text', 'pooling', 'transcriptions']);
    for (const k of RUN_KIND_NAMES) expect(RUN_KINDS[k].name).toBe(k);
  });

  it('gives every endpoint exactly one kind', () => {
    const all = RUN_KIND_NAMES.flatMap((k) => [...RUN_KINDS[k].endpoints]);
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...TEXT_ENDPOINTS, ...POOLING_ENDPOINTS, ...TRANSCRIPTION_ENDPOINTS].sort());
  });

  it('reads the kind from the endpoint, text when there is none', () => {
    for (const e of TEXT_ENDPOINTS) expect(kindOfEndpoint(e)).toBe('text');
    for (const e of POOLING_ENDPOINTS) expect(kindOfEndpoint(e)).toBe('pooling');
    expect(kindOfEndpoint(undefined)).toBe('text');
    expect(kindOfEndpoint('transcriptions')).toBe('transcriptions');
    expect(kindOfEndpoint('speech')).toBe('text');
  });

  it('reads a result kind from run.endpoint as isPoolingResult does', () => {
    for (const endpoint of [...TEXT_ENDPOINTS, ...POOLING_ENDPOINTS, undefined, 'other']) {
      const result = { run: endpoint === undefined ? {} : { endpoint } };
      expect(kindOfResult(result)).toBe(isPoolingResult(result) ? 'pooling' : 'text');
    }
  });
});
