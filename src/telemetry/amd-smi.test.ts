/**
 * amd-smi metric --json: the parser on the shapes amd-smi prints (value/unit
 * objects, bare values, "N/A", the gpu_data wrapper, per-generation power keys),
 * and the executable through the fake in test-support/fake-bin.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { amdSmiSource, amdValue, parseAmdSmiMetric, readAmdSmi } from './amd-smi.js';

const FAKE_BIN = fileURLToPath(new URL('../test-support/fake-bin', import.meta.url));
const saved = process.env.PATH;
beforeAll(() => {
  process.env.PATH = `${FAKE_BIN}:${saved}`;
});
afterEach(() => {
  delete process.env.FAKE_AMD_SMI_JSON;
});
afterAll(() => {
  process.env.PATH = saved;
});

const gpu = (i: number, power: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  gpu: i,
  usage: { gfx_activity: { value: 40 + i * 20, unit: '%' }, umc_activity: { value: 5, unit: '%' } },
  power: { ...power, gfx_voltage: { value: 800, unit: 'mV' } },
  mem_usage: { total_vram: { value: 196592, unit: 'MB' }, used_vram: { value: 150000 + i, unit: 'MB' } },
  energy: { total_energy_consumption: { value: 1000.5 + i, unit: 'J' } },
  ...extra,
});

describe('amd-smi metric --json', () => {
  it('sums two MI300X-style GPUs, averages activity, reads the energy counter', () => {
    const text = JSON.stringify([gpu(0, { socket_power: { value: 700, unit: 'W' } }), gpu(1, { socket_power: { value: 650, unit: 'W' } })]);
    expect(parseAmdSmiMetric(text)).toEqual({
      name: '2× AMD GPU',
      usedMiB: 300001,
      totalMiB: 393184,
      utilizationPct: 50,
      powerW: 1350,
      energyJ: 2002,
    });
  });
  it('takes the power under whichever key the generation uses, and the gpu_data wrapper', () => {
    const older = JSON.stringify({ gpu_data: [gpu(0, { average_socket_power: { value: 250, unit: 'W' }, socket_power: 'N/A' })] });
    expect(parseAmdSmiMetric(older)).toMatchObject({ powerW: 250, usedMiB: 150000 });
    const current = JSON.stringify([gpu(0, { current_socket_power: 300 })]);
    expect(parseAmdSmiMetric(current)).toMatchObject({ powerW: 300 });
  });
  it('"N/A" fields become null, never zero', () => {
    const text = JSON.stringify([gpu(0, { socket_power: { value: 'N/A', unit: 'W' } }, { usage: { gfx_activity: 'N/A' }, energy: 'N/A' })]);
    expect(parseAmdSmiMetric(text)).toMatchObject({ powerW: null, utilizationPct: null, energyJ: null, usedMiB: 150000 });
  });
  it('converts units and rejects unknown ones', () => {
    expect(amdValue({ value: 2, unit: 'GB' }, { MB: 1, GB: 1024 }, 'MB')).toBe(2048);
    expect(amdValue({ value: 5e6, unit: 'uJ' }, { J: 1, UJ: 1e-6 }, 'J')).toBe(5);
    expect(amdValue({ value: 5, unit: 'furlongs' }, { J: 1 }, 'J')).toBeNull();
    expect(amdValue('', { W: 1 }, 'W')).toBeNull();
  });
  it('reads nothing from an empty list, and says so for text that is not JSON', () => {
    expect(parseAmdSmiMetric('[]')).toBeNull();
    expect(parseAmdSmiMetric('AMD SMI: error')).toEqual({ error: 'amd-smi printed something that is not JSON' });
  });
});

describe('amd-smi as a process', () => {
  it('reads through the executable and polls as a source', async () => {
    process.env.FAKE_AMD_SMI_JSON = JSON.stringify([gpu(0, { socket_power: { value: 500, unit: 'W' } })]);
    expect(await readAmdSmi()).toMatchObject({ powerW: 500, usedMiB: 150000 });
    const source = amdSmiSource(50);
    source.start();
    await new Promise((r) => setTimeout(r, 400));
    const c = await source.stop();
    expect(c.source).toBe('amd-smi');
    expect(c.samples.length).toBeGreaterThanOrEqual(1);
    expect(c.samples[0]).toMatchObject({ powerW: 500, energyJ: 1000.5 });
  });
  it('says why when the driver is missing or the tool is absent', async () => {
    expect(await readAmdSmi()).toEqual({ error: 'amd-smi failed: AMD SMI: amdgpu driver not loaded' });
    process.env.PATH = '/nonexistent';
    expect(await readAmdSmi()).toEqual({ error: 'amd-smi is not on PATH' });
    process.env.PATH = `${FAKE_BIN}:${saved}`;
  });
});
