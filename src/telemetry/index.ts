/**
 * telemetry/: what the server and the accelerator report while a level runs —
 * the server's Prometheus endpoint (scraped with GETs only), the network round
 * trip, and GPU sources behind one interface; and what others read of a run
 * while it runs: its live metrics endpoint and its spans over OTLP.
 */
export { getText, type HttpText } from './http-text.js';
export { findMetricsEndpoint, scrapeMetrics, type EndpointHints, type MetricsEndpoint } from './metrics-endpoint.js';
export { openServerMetrics, type LevelScrapes, type ServerMetricsOptions, type ServerMetricsSession } from './server-metrics.js';
export { openFleetMetrics, openPrometheusMetrics, prometheusScrape, type FleetMetricsOptions, type PrometheusOptions } from './fleet-metrics.js';
export { measureRttMs } from './rtt.js';
export {
  GPU_SOURCE_CHOICES,
  GPU_SOURCE_KINDS,
  absentGpuSource,
  pollingGpuSource,
  type GpuRead,
  type GpuSource,
  type GpuSourceChoice,
  type GpuSourceKind,
} from './gpu-source.js';
export { NVIDIA_SMI_FIELDS, parseNvidiaSmiCsv, readNvidiaSmi } from './nvidia-smi.js';
export { nvidiaSmiSource } from './nvidia-smi-stream.js';
export { dcgmSource, isDcgmSentinel, parseDcgm } from './dcgm-exporter.js';
export { amdSmiSource, parseAmdSmiMetric, readAmdSmi } from './amd-smi.js';
export { parseRocmSmi, readRocmSmi, rocmSmiSource } from './rocm-smi.js';
export { engineGpuSource, engineMemoryGauge } from './engine-gpu-source.js';
export { selectGpuSource, type GpuSelection, type GpuSourceRequest } from './select-gpu-source.js';
export { LiveMetrics } from './live-metrics.js';
export { serveMetrics, type MetricsServer } from './metrics-server.js';
export { exportRequest, otlpExporter, requestSpan, type OtlpExporter, type OtlpPost, type OtlpReport } from './otlp-export.js';
export { startRunObserver, type ObserveTarget, type ObservedEvent, type RunObserver } from './run-observer.js';
