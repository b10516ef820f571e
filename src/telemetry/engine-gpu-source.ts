/**
 * The engine's own GPU memory gauge (TensorRT-LLM's `trtllm_gpu_memory_usage_bytes`)
 * read from its metrics endpoint: the only source when goodput cannot run a
 * vendor tool on the GPU host. Memory only, no total, no power.
 */
import { type MetricMap, seriesValue } from '../core/index.js';
import { type GpuSource, pollingGpuSource } from './gpu-source.js';
import { scrapeMetrics } from './metrics-endpoint.js';

/** The gauge's name when the server exposes one, else null. */
export function engineMemoryGauge(map: MetricMap): string | null {
  const c = map.roles.gpuMemoryBytes;
  return c && c.shape.kind === 'gauge' ? c.shape.name : null;
}

/** Polls `metricsUrl` every `intervalMs` (default 1000 ms) for the memory gauge named `gauge` (bytes). */
export function engineGpuSource(metricsUrl: string, gauge: string, intervalMs = 1000, headers?: Record<string, string>): GpuSource {
  const read = async () => {
    const r = await scrapeMetrics(metricsUrl, { timeoutMs: 2000, headers });
    if (!r.ok) return { error: `${metricsUrl}: ${r.error}` };
    const bytes = seriesValue(r.scrape, gauge, { combine: 'sum' });
    if (bytes === null) return { error: `${metricsUrl} no longer has ${gauge}` };
    return { name: null, usedMiB: bytes / 2 ** 20, totalMiB: null, utilizationPct: null, powerW: null, energyJ: null };
  };
  return pollingGpuSource('engine', `engine (${gauge})`, read, intervalMs);
}
