/**
 * rocm-smi --json: string values, power keys that differ by generation, "N/A",
 * and the executable through the fake in test-support/fake-bin.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseRocmSmi, readRocmSmi } from './rocm-smi.js';

const FAKE_BIN = fileURLToPath(new URL('../test-support/fake-bin', import.meta.url));
const saved = process.env.PATH;
beforeAll(() => {
  process.env.PATH = `${FAKE_BIN}:${saved}`;
});
afterEach(() => {
  delete process.env.FAKE_ROCM_SMI_JSON;
});
afterAll(() => {
  process.env.PATH = saved;
});

const GiB = 2 ** 30;
const card = (power: Record<string, string>, used = String(8 * GiB)) => ({
  'GPU use (%)': '37',
  'GPU Memory Allocated (VRAM%)': '12',
  'VRAM Total Memory (B)': String(64 * GiB),
  'VRAM Total Used Memory (B)': used,
  'Card Series': 'Instinct MI210',
  ...power,
});

describe('rocm-smi --json', () => {
  it('reads string values, bytes to MiB, and the older "Average Graphics Package Power (W)"', () => {
    const text = JSON.stringify({ card0: card({ 'Average Graphics Package Power (W)': '212.0' }), system: { 'Driver version': '6.3' } });
    expect(parseRocmSmi(text)).toEqual({ name: 'Instinct MI210', usedMiB: 8192, totalMiB: 65536, utilizationPct: 37, powerW: 212, energyJ: null });
  });
  it('reads the newer "Current Socket Graphics Package Power (W)" and sums cards', () => {
    const text = JSON.stringify({
      card0: card({ 'Current Socket Graphics Package Power (W)': '300.5' }),
      card1: card({ 'Current Socket Graphics Package Power (W)': '299.5' }),
    });
    expect(parseRocmSmi(text)).toMatchObject({ name: '2× Instinct MI210', usedMiB: 16384, powerW: 600 });
  });
  it('"N/A" becomes null, never zero', () => {
    const text = JSON.stringify({ card0: card({ 'Average Graphics Package Power (W)': 'N/A' }, 'N/A') });
    expect(parseRocmSmi(text)).toMatchObject({ powerW: null, usedMiB: null, utilizationPct: 37 });
  });
  it('reads nothing without cards, and says so for text that is not JSON', () => {
    expect(parseRocmSmi('{"system":{}}')).toBeNull();
    expect(parseRocmSmi('WARNING: no GPUs')).toEqual({ error: 'rocm-smi printed something that is not JSON' });
  });
  it('reads through the executable, or says why not', async () => {
    process.env.FAKE_ROCM_SMI_JSON = JSON.stringify({ card0: card({ 'Average Graphics Package Power (W)': '100' }) });
    expect(await readRocmSmi()).toMatchObject({ powerW: 100, usedMiB: 8192 });
    delete process.env.FAKE_ROCM_SMI_JSON;
    expect(await readRocmSmi()).toEqual({ error: 'rocm-smi failed: ERROR: No AMD GPUs specified' });
  });
});
