import { describe, expect, it } from 'vitest';
import { PROMPT_SET_SHA256, QUALITY_PROMPTS, REFERENCE_TEXT, REFERENCE_TEXT_SHA256, promptSetHash, referenceTextHash } from './prompt-set.js';

describe('the fixed, hashed workload', () => {
  it('the pinned hashes match the content (edit both together: a new hash is a new workload)', () => {
    expect(promptSetHash()).toBe(PROMPT_SET_SHA256);
    expect(referenceTextHash()).toBe(REFERENCE_TEXT_SHA256);
  });

  it('any change to a prompt or the text changes the hash', () => {
    expect(promptSetHash([...QUALITY_PROMPTS.slice(1)])).not.toBe(PROMPT_SET_SHA256);
    expect(referenceTextHash(`${REFERENCE_TEXT} `)).not.toBe(REFERENCE_TEXT_SHA256);
  });

  it('has 32 distinct non-empty prompts and a reference text of about 300 words', () => {
    expect(QUALITY_PROMPTS).toHaveLength(32);
    expect(new Set(QUALITY_PROMPTS).size).toBe(32);
    expect(QUALITY_PROMPTS.every((p) => p.trim().length > 0)).toBe(true);
    expect(REFERENCE_TEXT.split(/\s+/).length).toBeGreaterThanOrEqual(300);
  });
});
