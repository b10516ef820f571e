/**
 * The sweep's telemetry flags (`--gpu-source`, `--dcgm-url`, `--metrics-url`,
 * `--no-server-metrics`, `--metrics-interval-ms`) → spec fields, or a message that
 * names the flag. Combinations that cannot work are refused before anything runs.
 */
import type { SweepSpecInput } from '../runner/index.js';
import { GPU_SOURCE_CHOICES } from '../telemetry/index.js';
import { badFlag, parseChoice, parseUrl } from './parse-flags.js';
import { flagNumber } from './option-flags.js';

export interface TelemetryFlags {
  gpuSource: string;
  dcgmUrl?: string;
  metricsUrl?: string;
  /** False with --no-server-metrics. */
  serverMetrics: boolean;
  metricsIntervalMs: string;
}

export function telemetryFromFlags(f: TelemetryFlags): Pick<SweepSpecInput, 'gpuSource' | 'dcgmUrl' | 'metricsUrl' | 'serverMetrics' | 'metricsIntervalMs'> {
  const gpuSource = parseChoice('--gpu-source', f.gpuSource, GPU_SOURCE_CHOICES);
  const dcgmUrl = f.dcgmUrl === undefined ? null : parseUrl('--dcgm-url', f.dcgmUrl);
  if (gpuSource === 'dcgm' && dcgmUrl === null)
    throw badFlag('--gpu-source', "dcgm needs --dcgm-url (the exporter's metrics URL, e.g. http://gpu-host:9400/metrics)");
  if (dcgmUrl !== null && gpuSource !== 'dcgm' && gpuSource !== 'auto')
    throw badFlag('--dcgm-url', `is only read with --gpu-source dcgm or auto, not ${gpuSource}`);
  const metricsUrl = f.metricsUrl === undefined ? null : parseUrl('--metrics-url', f.metricsUrl);
  if (metricsUrl !== null && !f.serverMetrics) throw badFlag('--metrics-url', 'cannot be combined with --no-server-metrics');
  return {
    gpuSource,
    dcgmUrl,
    metricsUrl,
    serverMetrics: f.serverMetrics,
    metricsIntervalMs: flagNumber('metricsIntervalMs', f.metricsIntervalMs),
  };
}
