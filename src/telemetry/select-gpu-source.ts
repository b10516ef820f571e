/**
 * Chooses the GPU source for a run (`--gpu-source`). `auto` takes the DCGM exporter
 * when `--dcgm-url` is given (a default :9400 scrape could hit another exporter,
 * so it is never guessed), else the first local tool that answers (nvidia-smi,
 * amd-smi, rocm-smi), else the engine's own memory gauge; none found is stated
 * with every reason, and each level then says "not available".
 */
import { isLoopback } from '../client/index.js';
import type { MetricMap } from '../core/index.js';
import { amdSmiSource, readAmdSmi } from './amd-smi.js';
import { dcgmSource } from './dcgm-exporter.js';
import { engineGpuSource, engineMemoryGauge } from './engine-gpu-source.js';
import type { GpuSource, GpuSourceChoice } from './gpu-source.js';
import { readNvidiaSmi } from './nvidia-smi.js';
import { nvidiaSmiSource } from './nvidia-smi-stream.js';
import { readRocmSmi, rocmSmiSource } from './rocm-smi.js';

export interface GpuSourceRequest {
  choice: GpuSourceChoice;
  /** `--dcgm-url`. */
  dcgmUrl: string | null;
  /** The server's metrics endpoint and the names found there, when it has one. */
  metrics: { url: string; map: MetricMap } | null;
  /** The benchmarked server: a local tool reads this machine's GPUs, which matters when the server is elsewhere. */
  serverUrl: string;
  headers?: Record<string, string>;
}

export type GpuSelection = { source: GpuSource; warnings: string[] } | { source: null; reason: string; warnings: string[] };

const LOCAL_KINDS = new Set(['nvidia-smi', 'amd-smi', 'rocm-smi']);

function engine(r: GpuSourceRequest): GpuSource | string {
  const gauge = r.metrics ? engineMemoryGauge(r.metrics.map) : null;
  if (r.metrics === null || gauge === null) return 'the server exposes no GPU memory gauge (TensorRT-LLM has one)';
  return engineGpuSource(r.metrics.url, gauge, 1000, r.headers);
}

async function pick(r: GpuSourceRequest): Promise<GpuSource | string> {
  switch (r.choice) {
    case 'none':
      return 'GPU telemetry is off (--gpu-source none)';
    case 'nvidia-smi':
      return nvidiaSmiSource();
    case 'amd-smi':
      return amdSmiSource();
    case 'rocm-smi':
      return rocmSmiSource();
    case 'dcgm':
      return r.dcgmUrl === null ? '--gpu-source dcgm needs --dcgm-url' : dcgmSource(r.dcgmUrl);
    case 'engine':
      return engine(r);
    case 'auto': {
      if (r.dcgmUrl !== null) return dcgmSource(r.dcgmUrl);
      const reasons: string[] = [];
      const nv = await readNvidiaSmi();
      if (!('error' in nv)) return nvidiaSmiSource();
      reasons.push(nv.error);
      const amd = await readAmdSmi();
      if (!('error' in amd)) return amdSmiSource();
      reasons.push(amd.error);
      const rocm = await readRocmSmi();
      if (!('error' in rocm)) return rocmSmiSource();
      reasons.push(rocm.error);
      const e = engine(r);
      if (typeof e !== 'string') return e;
      reasons.push(e);
      return `no GPU source: ${reasons.join('; ')}`;
    }
  }
}

/** The source for the run, or why there is none, with warnings about it. */
export async function selectGpuSource(r: GpuSourceRequest): Promise<GpuSelection> {
  const chosen = await pick(r);
  if (typeof chosen === 'string') return { source: null, reason: chosen, warnings: [] };
  const warnings =
    LOCAL_KINDS.has(chosen.kind) && !isLoopback(new URL(r.serverUrl).hostname)
      ? [
          `GPU readings come from ${chosen.label} on this machine, but the server is at ${new URL(r.serverUrl).host}: run goodput on the GPU host, or use --dcgm-url`,
        ]
      : [];
  return { source: chosen, warnings };
}
