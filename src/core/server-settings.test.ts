// The settings table's two readings: both servers side by side under one
// label per setting, and a baseline below a default that holds its engine
// back named as handicapped, with the default, and nothing else flagged.
import { describe, expect, it } from 'vitest';
import type { ServerConfiguration } from './server-account-schema.js';
import { SERVER_SETTINGS, handicapsOf, settingRows } from './server-settings.js';

const sim = (settings: ServerConfiguration['settings']): ServerConfiguration => ({ engine: 'goodput-sim', source: 'GET /sim/config', settings, note: null });

describe('server settings', () => {
  it('names each setting once per engine and cites where each default comes from', () => {
    const keys = SERVER_SETTINGS.map((s) => `${s.engine} ${s.name}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of SERVER_SETTINGS) {
      expect(s.source.length, s.name).toBeGreaterThan(10);
      if (s.handicapBelow) expect(s.default, s.name).not.toBeNull();
    }
  });

  it('flags a baseline below a default that holds the engine back, naming the setting, its value and the default', () => {
    const c = sim([
      { name: 'profile.maxBatch', value: 1 },
      { name: 'profile.maxModelLen', value: 32_768 },
      { name: 'profile.decodeStepMs', value: 1 },
    ]);
    expect(handicapsOf(c).map((h) => h.text)).toEqual(['handicapped baseline: max batch 1 (engine default 256)']);
    const llama: ServerConfiguration = { engine: 'llamacpp', source: 'GET /props', settings: [{ name: 'total_slots', value: 1 }], note: null };
    expect(handicapsOf(llama).map((h) => h.text)).toEqual(['handicapped baseline: parallel slots 1 (engine default 4)']);
    expect(handicapsOf({ ...llama, settings: [{ name: 'total_slots', value: 8 }] })).toEqual([]);
    // Names are read per engine: an SGLang server's total_slots is not llama.cpp's.
    expect(handicapsOf({ ...llama, engine: 'sglang' })).toEqual([]);
  });

  it('lays two configurations side by side, marking each setting that differs or that one side did not report', () => {
    const b = sim([
      { name: 'profile.maxBatch', value: 1 },
      { name: 'profile.prefixCaching', value: true },
    ]);
    const o = sim([
      { name: 'profile.maxBatch', value: 256 },
      { name: 'profile.prefixCaching', value: true },
      { name: 'profile.tokensPerChunk', value: 2 },
    ]);
    expect(settingRows(b, o)).toEqual([
      { setting: 'max batch', baseline: '1', optimized: '256', differs: true },
      { setting: 'prefix caching', baseline: 'true', optimized: 'true', differs: false },
      { setting: 'tokens per decode step', baseline: null, optimized: '2', differs: true },
    ]);
  });
});
