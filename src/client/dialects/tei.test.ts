import { describe, expect, it } from 'vitest';
import { TEI_INFO } from '../../test-support/rank-server.js';
import { identify } from './detect.js';
import type { ProbeEvidence, ProbeReply } from './types.js';

const info = (json: unknown): ProbeEvidence => new Map<string, ProbeReply>([['/info', { status: 200, headers: {}, json, text: JSON.stringify(json) }]]);

describe('TEI detection', () => {
  it('knows TEI by /info (model_type and max_client_batch_size), with its version and served model', () => {
    const d = identify(info(TEI_INFO));
    expect(d.dialect.kind).toBe('tei');
    expect(d.version).toBe('1.5.0');
    expect(d.evidence).toEqual(['GET /info: version "1.5.0", model_type reranker']);
    expect(d.dialect.servedModel?.(d.replies)).toBe('BAAI/bge-reranker-base');
    expect(d.dialect.generatesText).toBe(false);
    expect(identify(info({ ...TEI_INFO, model_type: { embedding: { pooling: 'cls' } } })).dialect.kind).toBe('tei');
    // A forged model_id (terminal escapes, a document's length) is no model name.
    for (const model_id of ['evil\u001b[2Jname', 'x'.repeat(513), '', 42]) {
      const forged = identify(info({ ...TEI_INFO, model_id }));
      expect(forged.dialect.servedModel?.(forged.replies)).toBeNull();
    }
  });

  it("leaves TGI's /info to TGI, and an /info that only looks alike to the generic dialect", () => {
    expect(identify(info({ model_id: 'm', max_total_tokens: 4096, router: 'text-generation-router', version: '3.0.0' })).dialect.kind).toBe('tgi');
    expect(identify(info({ ...TEI_INFO, model_type: { embedding: {}, reranker: {} } })).dialect.kind).toBe('generic');
    expect(identify(info({ ...TEI_INFO, model_type: 'reranker' })).dialect.kind).toBe('generic');
    const { max_client_batch_size: _, ...noBatch } = TEI_INFO;
    expect(identify(info(noBatch)).dialect.kind).toBe('generic');
  });
});
