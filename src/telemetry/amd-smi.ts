/**
 * AMD GPUs through `amd-smi metric --json`: a list with one object per GPU whose
 * figures are `{value, unit}` pairs (or bare values, or "N/A"): `usage.gfx_activity`
 * (%), `power.socket_power` (named `current_socket_power` or `average_socket_power`
 * on some generations), `mem_usage.used_vram`/`total_vram`, and
 * `energy.total_energy_consumption` where the board has it. Newer releases wrap
 * the list as `{"gpu_data": […]}`.
 */
import type { GpuSample } from '../core/index.js';
import { execText } from './exec-text.js';
import { type GpuSource, pollingGpuSource, sumAll, toolJson } from './gpu-source.js';

type Reading = Omit<GpuSample, 'atMs'>;

const MIB: Readonly<Record<string, number>> = { B: 1 / 2 ** 20, KB: 1 / 1024, KIB: 1 / 1024, MB: 1, MIB: 1, GB: 1024, GIB: 1024 };
const WATT: Readonly<Record<string, number>> = { W: 1, MW: 1e-3, UW: 1e-6 };
const JOULE: Readonly<Record<string, number>> = { J: 1, MJ: 1e-3, UJ: 1e-6 };

/** A figure as a number in the unit of `factors` (amd-smi's "MB" are MiB); null for "N/A", unknown units or junk. */
export function amdValue(field: unknown, factors: Readonly<Record<string, number>>, defaultUnit: string): number | null {
  const obj = typeof field === 'object' && field !== null ? (field as { value?: unknown; unit?: unknown }) : { value: field, unit: defaultUnit };
  const raw = typeof obj.value === 'number' ? obj.value : typeof obj.value === 'string' ? Number(obj.value) : NaN;
  if (!Number.isFinite(raw) || (typeof obj.value === 'string' && obj.value.trim() === '')) return null;
  const unit = (typeof obj.unit === 'string' ? obj.unit : defaultUnit).trim().toUpperCase();
  const f = factors[unit];
  return f === undefined ? null : raw * f;
}

const at = (o: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((x, k) => (typeof x === 'object' && x !== null ? (x as Record<string, unknown>)[k] : undefined), o);

/** Parses `amd-smi metric --json`; null when it holds no GPU object, or a message when it is not JSON. */
export function parseAmdSmiMetric(text: string): Reading | null | { error: string } {
  const parsed = toolJson(text, 'amd-smi');
  if ('error' in parsed) return parsed;
  const { data } = parsed;
  const gpus = Array.isArray(data) ? data : at(data, 'gpu_data');
  if (!Array.isArray(gpus) || gpus.length === 0) return null;
  const power = (g: unknown) => {
    for (const key of ['socket_power', 'current_socket_power', 'average_socket_power']) {
      const v = amdValue(at(g, 'power', key), WATT, 'W');
      if (v !== null) return v;
    }
    return null;
  };
  const utils = gpus.map((g) => amdValue(at(g, 'usage', 'gfx_activity'), { '%': 1 }, '%')).filter((v): v is number => v !== null);
  return {
    name: gpus.length > 1 ? `${gpus.length}× AMD GPU` : 'AMD GPU',
    usedMiB: sumAll(gpus.map((g) => amdValue(at(g, 'mem_usage', 'used_vram'), MIB, 'MB'))),
    totalMiB: sumAll(gpus.map((g) => amdValue(at(g, 'mem_usage', 'total_vram'), MIB, 'MB'))),
    utilizationPct: utils.length > 0 ? utils.reduce((a, b) => a + b, 0) / utils.length : null,
    powerW: sumAll(gpus.map(power)),
    energyJ: sumAll(gpus.map((g) => amdValue(at(g, 'energy', 'total_energy_consumption'), JOULE, 'J'))),
  };
}

/** One reading through a single amd-smi call, or why there is none. */
export async function readAmdSmi(timeoutMs = 5000): Promise<Reading | { error: string }> {
  const r = await execText('amd-smi', ['metric', '--json'], timeoutMs);
  if (!r.ok) return { error: r.error };
  const parsed = parseAmdSmiMetric(r.stdout);
  return parsed ?? { error: 'amd-smi listed no GPU' };
}

/** Polls amd-smi every `intervalMs` (default 1000 ms: it is slow to answer). */
export function amdSmiSource(intervalMs = 1000): GpuSource {
  return pollingGpuSource('amd-smi', 'amd-smi', () => readAmdSmi(), intervalMs);
}
