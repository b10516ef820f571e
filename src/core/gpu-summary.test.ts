import { describe, expect, it } from 'vitest';
import { type GpuSample, summarizeGpu } from './gpu-summary.js';

const s = (atMs: number, f: Partial<GpuSample>): GpuSample => ({
  atMs,
  name: 'G',
  usedMiB: null,
  totalMiB: 1000,
  utilizationPct: null,
  powerW: null,
  energyJ: null,
  ...f,
});

describe('GPU summary of a level', () => {
  it('memory peak/mean, utilisation, power, and energy from the counter (hand-computed)', () => {
    const samples = [
      s(0, { usedMiB: 100, utilizationPct: 10, powerW: 100, energyJ: 1000 }),
      s(1000, { usedMiB: 300, utilizationPct: 30, powerW: 200, energyJ: 1150 }),
      s(2000, { usedMiB: 200, powerW: 300, energyJ: 1400 }),
    ];
    const { mem, gpu } = summarizeGpu({ source: 'dcgm-exporter', samples, reason: null, notes: [], warnings: [] }, { durationMs: 4000, outputTokens: 400 });
    expect(mem).toEqual({ available: true, source: 'dcgm-exporter', gpu: 'G', totalMiB: 1000, peak: 300, mean: 200, samples: 3 });
    // Counter: (1400 − 1000) J over 2 s = 200 W; × the 4 s level = 800 J; / 400 tokens = 2 J/token.
    expect(gpu).toEqual({
      available: true,
      source: 'dcgm-exporter',
      samples: 3,
      utilizationPct: { mean: 20, max: 30 },
      powerW: { mean: 200, max: 300 },
      energyJ: 800,
      energyMethod: 'counter',
      joulesPerOutputToken: 2,
      notes: [],
    });
  });

  it('without an energy counter, weights power readings by time', () => {
    const samples = [s(0, { powerW: 100 }), s(1000, { powerW: 100 }), s(1500, { powerW: 400 })];
    const { gpu } = summarizeGpu({ source: 'nvidia-smi', samples, reason: null, notes: [], warnings: [] }, { durationMs: 2000, outputTokens: 100 });
    // Trapezoids: 100 W × 1 s + 250 W × 0.5 s = 225 J over 1.5 s = 150 W (the plain mean would be 200 W).
    expect(gpu).toMatchObject({ energyJ: 300, energyMethod: 'power', joulesPerOutputToken: 3 });
  });

  it('says when an energy counter never moved (a slow DCGM interval) and uses power instead', () => {
    const samples = [s(0, { powerW: 50, energyJ: 7 }), s(1000, { powerW: 50, energyJ: 7 })];
    const { gpu } = summarizeGpu(
      { source: 'dcgm-exporter', samples, reason: null, notes: [], warnings: ['interval note'] },
      { durationMs: 1000, outputTokens: 0 },
    );
    if (!gpu.available) throw new Error('expected readings');
    expect(gpu.energyMethod).toBe('power');
    expect(gpu.energyJ).toBe(50);
    expect(gpu.joulesPerOutputToken).toBeNull(); // no tokens: no per-token figure, not a zero
    expect(gpu.notes[0]).toBe('interval note');
    expect(gpu.notes.some((n) => /energy counter did not advance/.test(n))).toBe(true);
  });

  it('states "not available" with the reason when nothing was read, never a zero', () => {
    const { mem, gpu } = summarizeGpu(
      { source: 'nvidia-smi', samples: [], reason: 'nvidia-smi is not on PATH', notes: [], warnings: [] },
      { durationMs: 1000, outputTokens: 10 },
    );
    expect(mem).toEqual({ available: false, source: 'not available', reason: 'nvidia-smi is not on PATH' });
    expect(gpu).toEqual({ available: false, source: 'not available', reason: 'nvidia-smi is not on PATH' });
  });

  it('reports each missing field as null with a note', () => {
    const { mem, gpu } = summarizeGpu(
      { source: 'nvidia-smi', samples: [s(0, { name: null, totalMiB: null, utilizationPct: 40 })], reason: null, notes: [], warnings: [] },
      { durationMs: 1000, outputTokens: 10 },
    );
    expect(mem).toEqual({ available: false, source: 'not available', reason: 'nvidia-smi reported no memory reading' });
    expect(gpu).toMatchObject({
      available: true,
      utilizationPct: { mean: 40, max: 40 },
      powerW: null,
      energyJ: null,
      energyMethod: null,
      joulesPerOutputToken: null,
    });
    if (gpu.available)
      expect(gpu.notes).toEqual(['nvidia-smi reported no power', 'no energy figure: the source gave neither an energy counter nor power readings']);
  });

  it('names a GPU that did not say what it is, and keeps a null total', () => {
    const { mem } = summarizeGpu(
      { source: 'engine (trtllm_gpu_memory_usage_bytes)', samples: [s(0, { name: null, totalMiB: null, usedMiB: 5 })], reason: null, notes: [], warnings: [] },
      { durationMs: 1, outputTokens: 1 },
    );
    expect(mem).toMatchObject({ available: true, gpu: 'GPU (name not reported)', totalMiB: null, peak: 5 });
  });
});
