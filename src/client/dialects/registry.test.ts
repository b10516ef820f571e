// The registry is keyed by kind, and a bad --engine value names every valid one.
import { describe, expect, it } from 'vitest';
import { DETECTION_ORDER, dialects, ENGINE_CHOICES, parseEngineChoice } from './registry.js';
import { DIALECT_KINDS, ENGINE_KINDS } from './types.js';

describe('dialect registry', () => {
  it('has one dialect per kind, each under its own kind, speaking to a known engine', () => {
    expect(Object.keys(dialects).sort()).toEqual([...DIALECT_KINDS].sort());
    for (const [key, d] of Object.entries(dialects)) {
      expect(d.kind).toBe(key);
      expect(ENGINE_KINDS).toContain(d.engine);
    }
    expect(dialects['ollama-native'].engine).toBe('ollama');
  });

  it('detects every engine, generic last, and never the native API by itself', () => {
    expect([...DETECTION_ORDER].sort()).toEqual([...ENGINE_KINDS].sort());
    expect(DETECTION_ORDER.at(-1)).toBe('generic');
  });

  it('parses --engine values and refuses unknown ones with the list of valid values', () => {
    expect(parseEngineChoice('auto')).toEqual({ ok: true, choice: 'auto' });
    expect(parseEngineChoice(' TGI ')).toEqual({ ok: true, choice: 'tgi' });
    const bad = parseEngineChoice('vllm2');
    expect(bad).toEqual({ ok: false, message: `'vllm2' is not a known engine; use one of ${ENGINE_CHOICES.join(', ')}` });
  });

  it('keeps the Prometheus facts the ground-truth side reads', () => {
    expect(dialects.vllm.metrics).toMatchObject({ path: '/metrics', enabledBy: null, names: { ttftSeconds: 'vllm:time_to_first_token_seconds' } });
    expect(dialects.sglang.metrics.enabledBy).toBe('--enable-metrics');
    expect(dialects.trtllm.metrics.path).toBe('/prometheus/metrics');
    expect(dialects.ollama.metrics.path).toBeNull();
    expect(dialects.openai.tokenize).toBeNull();
  });
});
