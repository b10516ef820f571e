/**
 * Samples GPU memory during one level: peak and mean of the readings taken while
 * it ran, with their source. One reading is in flight at a time, so a slow
 * nvidia-smi never piles up processes.
 */
import type { GpuMem } from '../core/index.js';
import { type GpuReading, readNvidiaSmi } from './nvidia-smi.js';

export interface GpuSampler {
  /** Starts sampling for a level. */
  start(): void;
  /** Stops and summarises the level's readings. */
  stop(): Promise<GpuMem>;
}

export type GpuReader = () => Promise<GpuReading | { error: string }>;

/** A sampler polling `read` every `intervalMs` (default 500 ms) while started. */
export function createGpuSampler(read: GpuReader = () => readNvidiaSmi(), intervalMs = 500): GpuSampler {
  let readings: GpuReading[] = [];
  let lastError = 'no reading was taken';
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;

  const sample = () => {
    if (inFlight) return;
    inFlight = read().then((r) => {
      if ('error' in r) lastError = r.error;
      else readings.push(r);
    }).finally(() => { inFlight = null; });
  };

  return {
    start() {
      readings = [];
      sample();
      timer = setInterval(sample, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (inFlight) await inFlight;
      if (readings.length === 0) return { available: false, source: 'not available', reason: lastError };
      let peak = 0;
      let sum = 0;
      for (const r of readings) {
        peak = Math.max(peak, r.usedMiB);
        sum += r.usedMiB;
      }
      const last = readings[readings.length - 1] as GpuReading;
      return { available: true, source: 'nvidia-smi', gpu: last.gpu, totalMiB: last.totalMiB, peak, mean: sum / readings.length, samples: readings.length };
    },
  };
}
