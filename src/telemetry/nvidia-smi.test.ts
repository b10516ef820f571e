import { describe, expect, it } from 'vitest';
import { createGpuSampler } from './gpu-sampler.js';
import { parseNvidiaSmiCsv } from './nvidia-smi.js';

describe('nvidia-smi parsing', () => {
  it('sums memory across GPUs and names them', () => {
    const csv = '0, NVIDIA H100 80GB HBM3, 70123, 81559\n1, NVIDIA H100 80GB HBM3, 70001, 81559\n';
    expect(parseNvidiaSmiCsv(csv)).toEqual({ gpu: '2× NVIDIA H100 80GB HBM3', usedMiB: 140124, totalMiB: 163118 });
  });
  it('skips [N/A] readings and reports none rather than zero', () => {
    expect(parseNvidiaSmiCsv('0, NVIDIA A100, [N/A], [N/A]\n')).toBeNull();
    expect(parseNvidiaSmiCsv('')).toBeNull();
  });
});

describe('gpu sampler', () => {
  it('reports peak and mean of the readings taken during the level', async () => {
    const values = [100, 300, 200];
    let i = 0;
    const sampler = createGpuSampler(async () => ({ gpu: 'G', usedMiB: values[Math.min(i++, 2)] as number, totalMiB: 1000 }), 5);
    sampler.start();
    await new Promise((r) => setTimeout(r, 40));
    const mem = await sampler.stop();
    expect(mem).toMatchObject({ source: 'nvidia-smi', gpu: 'G', totalMiB: 1000, peak: 300 });
    if (!mem.available) throw new Error('expected readings');
    expect(mem.samples).toBeGreaterThanOrEqual(3);
    expect(mem.mean).toBeGreaterThan(100);
    expect(mem.mean).toBeLessThan(300);
  });
  it('says why when nothing could be read', async () => {
    const sampler = createGpuSampler(async () => ({ error: 'nvidia-smi is not on PATH' }), 5);
    sampler.start();
    expect(await sampler.stop()).toEqual({ available: false, source: 'not available', reason: 'nvidia-smi is not on PATH' });
  });
});
