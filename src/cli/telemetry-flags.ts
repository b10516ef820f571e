/**
 * The sweep's telemetry flags (`--gpu-source`, `--dcgm-url`, `--metrics-url`,
 * `--no-server-metrics`, `--metrics-interval-ms`, and a disaggregated server's
 * `--metrics-url ROLE=URL`, `--pool-gpus`, `--kv-link-gbps`) → spec fields, or a
 * message that names the flag. Combinations that cannot work are refused before anything runs.
 */
import { DISAGG_ROLES, type DisaggRole, LIMITS, limitMessage } from '../core/index.js';
import type { SweepSpecInput } from '../runner/index.js';
import { GPU_SOURCE_CHOICES } from '../telemetry/index.js';
import { badFlag, parseChoice, parseUrl } from './parse-flags.js';
import { flagNumber } from './option-flags.js';

export interface TelemetryFlags {
  gpuSource: string;
  dcgmUrl?: string;
  /** Each `--metrics-url` given: the server's own (a bare URL) and the pools' (`ROLE=URL`). */
  metricsUrl?: string[];
  /** False with --no-server-metrics. */
  serverMetrics: boolean;
  metricsIntervalMs: string;
  poolGpus?: string;
  kvLinkGbps?: string;
}

const ROLE_PREFIX = /^([A-Za-z][\w-]*)=(.*)$/s;

/** The `--metrics-url` values split: at most one bare URL (the server's), and each role's at most once. */
function metricsUrls(given: readonly string[]): { own: string | null; roles: Array<{ role: DisaggRole; url: string }> } {
  let own: string | null = null;
  const roles: Array<{ role: DisaggRole; url: string }> = [];
  for (const text of given) {
    const m = ROLE_PREFIX.exec(text);
    if (m === null) {
      if (own !== null)
        throw badFlag('--metrics-url', `the server's endpoint is given twice (${own}); a pool's is given as ROLE=URL with ${DISAGG_ROLES.join(', ')}`);
      own = parseUrl('--metrics-url', text);
      continue;
    }
    const role = m[1] as DisaggRole;
    if (!DISAGG_ROLES.includes(role)) throw badFlag('--metrics-url', `'${m[1]}' is not a role: one of ${DISAGG_ROLES.join(', ')}`);
    if (roles.some((r) => r.role === role)) throw badFlag('--metrics-url', `the ${role} pool's endpoint is given twice`);
    roles.push({ role, url: parseUrl('--metrics-url', m[2] as string) });
  }
  return { own, roles };
}

/** "prefill=2,decode=6" → GPUs per role, each a role given with --metrics-url, a whole number within the limit. */
function poolGpus(text: string, roles: readonly DisaggRole[]): Partial<Record<DisaggRole, number>> {
  const out: Partial<Record<DisaggRole, number>> = {};
  for (const item of text.split(',').map((s) => s.trim())) {
    const at = item.indexOf('=');
    const name = (at < 0 ? item : item.slice(0, at)).trim();
    const count = at < 0 ? '' : item.slice(at + 1).trim();
    if (!roles.includes(name as DisaggRole))
      throw badFlag('--pool-gpus', `'${item}' names no pool given with --metrics-url ROLE=URL (${roles.length === 0 ? 'none was' : roles.join(', ')})`);
    if (out[name as DisaggRole] !== undefined) throw badFlag('--pool-gpus', `the ${name} pool's GPUs are given twice`);
    // Digits only: Number() would take 0x10 as 16 GPUs and 1e3 as 1,000.
    const n = /^\d+$/.test(count) ? Number(count) : Number.NaN;
    if (!Number.isInteger(n) || n < 1) throw badFlag('--pool-gpus', `'${item}': the GPUs of a pool are a whole number, at least 1`);
    if (n > LIMITS.poolGpus.max) throw badFlag('--pool-gpus', limitMessage('poolGpus', n, `${name} GPUs`));
    out[name as DisaggRole] = n;
  }
  return out;
}

/** The disaggregated server's pools from the role URLs, `--pool-gpus` and `--kv-link-gbps`; null when no role was given. */
function disaggFromFlags(roles: ReturnType<typeof metricsUrls>['roles'], f: TelemetryFlags): NonNullable<SweepSpecInput['disagg']> | null {
  if (roles.length === 0) {
    if (f.poolGpus !== undefined) throw badFlag('--pool-gpus', 'needs the pools: --metrics-url ROLE=URL');
    if (f.kvLinkGbps !== undefined) throw badFlag('--kv-link-gbps', 'needs the pools whose KV transfer it bounds: --metrics-url ROLE=URL');
    return null;
  }
  if (!f.serverMetrics) throw badFlag('--metrics-url', 'cannot be combined with --no-server-metrics');
  const gpus =
    f.poolGpus === undefined
      ? {}
      : poolGpus(
          f.poolGpus,
          roles.map((r) => r.role),
        );
  return {
    roles: roles.map((r) => ({ ...r, gpus: gpus[r.role] ?? null })),
    kvLinkGbps: f.kvLinkGbps === undefined ? null : flagNumber('kvLinkGbps', f.kvLinkGbps),
  };
}

export function telemetryFromFlags(
  f: TelemetryFlags,
): Pick<SweepSpecInput, 'gpuSource' | 'dcgmUrl' | 'metricsUrl' | 'serverMetrics' | 'metricsIntervalMs' | 'disagg'> {
  const gpuSource = parseChoice('--gpu-source', f.gpuSource, GPU_SOURCE_CHOICES);
  const dcgmUrl = f.dcgmUrl === undefined ? null : parseUrl('--dcgm-url', f.dcgmUrl);
  if (gpuSource === 'dcgm' && dcgmUrl === null)
    throw badFlag('--gpu-source', "dcgm needs --dcgm-url (the exporter's metrics URL, e.g. http://gpu-host:9400/metrics)");
  if (dcgmUrl !== null && gpuSource !== 'dcgm' && gpuSource !== 'auto')
    throw badFlag('--dcgm-url', `is only read with --gpu-source dcgm or auto, not ${gpuSource}`);
  const { own: metricsUrl, roles } = metricsUrls(f.metricsUrl ?? []);
  if (metricsUrl !== null && !f.serverMetrics) throw badFlag('--metrics-url', 'cannot be combined with --no-server-metrics');
  const disagg = disaggFromFlags(roles, f);
  return {
    gpuSource,
    dcgmUrl,
    metricsUrl,
    serverMetrics: f.serverMetrics,
    metricsIntervalMs: flagNumber('metricsIntervalMs', f.metricsIntervalMs),
    ...(disagg === null ? {} : { disagg }),
  };
}
