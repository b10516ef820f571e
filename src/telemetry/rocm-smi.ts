/**
 * AMD GPUs through the older `rocm-smi … --json`: an object per card
 * (`{"card0": {…}, "card1": {…}}`) whose values are all strings, e.g.
 * `"GPU use (%)": "12"`, `"VRAM Total Used Memory (B)": "1073741824"`. The power
 * key differs by generation ("Average Graphics Package Power (W)" or "Current
 * Socket Graphics Package Power (W)"), so any "… Power (W)" key is taken.
 */
import type { GpuSample } from '../core/index.js';
import { execText } from './exec-text.js';
import { type GpuSource, pollingGpuSource, sumAll, toolJson } from './gpu-source.js';

type Reading = Omit<GpuSample, 'atMs'>;

export const ROCM_SMI_ARGS = ['--showuse', '--showmeminfo', 'vram', '--showpower', '--showproductname', '--json'];

function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string' || v.trim() === '') return null;
  const x = Number(v.trim());
  return Number.isFinite(x) ? x : null;
}

/** Parses `rocm-smi --json`; null when it lists no card, or a message when it is not JSON. */
export function parseRocmSmi(text: string): Reading | null | { error: string } {
  const parsed = toolJson(text, 'rocm-smi');
  if ('error' in parsed) return parsed;
  const { data } = parsed;
  if (typeof data !== 'object' || data === null) return null;
  const cards = Object.entries(data as Record<string, unknown>)
    .filter(([k, v]) => /^card\d+$/.test(k) && typeof v === 'object' && v !== null)
    .map(([, v]) => v as Record<string, unknown>);
  if (cards.length === 0) return null;
  const power = (c: Record<string, unknown>) => {
    const key = Object.keys(c).find((k) => /Power \(W\)$/.test(k) && num(c[k]) !== null);
    return key === undefined ? null : num(c[key]);
  };
  const mib = (v: unknown) => {
    const b = num(v);
    return b === null ? null : b / 2 ** 20;
  };
  const utils = cards.map((c) => num(c['GPU use (%)'])).filter((v): v is number => v !== null);
  const names = [
    ...new Set(cards.map((c) => c['Card Series'] ?? c['Card series'] ?? c['Card SKU']).filter((n): n is string => typeof n === 'string' && n !== 'N/A')),
  ];
  return {
    name: names.length === 1 ? (cards.length > 1 ? `${cards.length}× ${names[0]}` : (names[0] as string)) : names.length > 1 ? names.join(' + ') : null,
    usedMiB: sumAll(cards.map((c) => mib(c['VRAM Total Used Memory (B)']))),
    totalMiB: sumAll(cards.map((c) => mib(c['VRAM Total Memory (B)']))),
    utilizationPct: utils.length > 0 ? utils.reduce((a, b) => a + b, 0) / utils.length : null,
    powerW: sumAll(cards.map(power)),
    energyJ: null,
  };
}

/** One reading through a single rocm-smi call, or why there is none. */
export async function readRocmSmi(timeoutMs = 5000): Promise<Reading | { error: string }> {
  const r = await execText('rocm-smi', ROCM_SMI_ARGS, timeoutMs);
  if (!r.ok) return { error: r.error };
  return parseRocmSmi(r.stdout) ?? { error: 'rocm-smi listed no card' };
}

/** Polls rocm-smi every `intervalMs` (default 1000 ms). */
export function rocmSmiSource(intervalMs = 1000): GpuSource {
  return pollingGpuSource('rocm-smi', 'rocm-smi', () => readRocmSmi(), intervalMs);
}
