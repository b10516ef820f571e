/**
 * NVIDIA GPUs through `nvidia-smi --query-gpu`: memory, utilisation and power of
 * every GPU, combined (a tensor-parallel server spans several), read once here
 * or streamed by one `nvidia-smi … -lms N` process per run. Fields
 * that read `[N/A]` or `[Not Supported]` (utilisation under MIG, power on some
 * boards) become null, never zero. The streaming source is in nvidia-smi-stream.ts.
 */
import type { GpuSample } from '../core/index.js';
import { execText } from './exec-text.js';

export const NVIDIA_SMI_FIELDS = ['index', 'name', 'memory.used', 'memory.total', 'utilization.gpu', 'power.draw'] as const;
/** The query arguments (add `-lms N` to stream). */
export const NVIDIA_SMI_QUERY = [`--query-gpu=${NVIDIA_SMI_FIELDS.join(',')}`, '--format=csv,noheader,nounits'];

type Reading = Omit<GpuSample, 'atMs'>;
/** One GPU's line. */
export interface SmiLine {
  index: number;
  name: string;
  used: number | null;
  total: number | null;
  util: number | null;
  power: number | null;
}
type Line = SmiLine;

/** A numeric field, or null for `[N/A]`, `[Not Supported]`, empty and the like. */
export function smiNumber(field: string | undefined): number | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)/.exec(field ?? '');
  return m ? Number(m[1]) : null;
}

/** Parses one GPU's CSV line; null when it is not one. */
export function parseSmiLine(line: string): Line | null {
  const f = line.split(',').map((x) => x.trim());
  const index = smiNumber(f[0]);
  if (f.length < 3 || index === null) return null;
  return { index, name: f[1] ?? '', used: smiNumber(f[2]), total: smiNumber(f[3]), util: smiNumber(f[4]), power: smiNumber(f[5]) };
}

/** Sums of a field over all GPUs; null when any GPU lacks it (a partial sum would understate). */
function sumAll(lines: readonly Line[], f: (l: Line) => number | null): number | null {
  let s = 0;
  for (const l of lines) {
    const v = f(l);
    if (v === null) return null;
    s += v;
  }
  return s;
}

/** Combines one reading's lines (one per GPU). */
export function combineSmiLines(lines: readonly Line[]): Reading {
  const names = [...new Set(lines.map((l) => l.name))];
  const name = lines.length > 1 && names.length === 1 ? `${lines.length}× ${names[0]}` : names.join(' + ');
  const utils = lines.map((l) => l.util).filter((v): v is number => v !== null);
  return {
    name,
    usedMiB: sumAll(lines, (l) => l.used),
    totalMiB: sumAll(lines, (l) => l.total),
    utilizationPct: utils.length > 0 ? utils.reduce((a, b) => a + b, 0) / utils.length : null,
    powerW: sumAll(lines, (l) => l.power),
    energyJ: null,
  };
}

/** Parses one reading (CSV, a line per GPU, fields as NVIDIA_SMI_FIELDS); null when no line parses. */
export function parseNvidiaSmiCsv(text: string): Reading | null {
  const lines = text
    .split(/\r?\n/)
    .map(parseSmiLine)
    .filter((l): l is Line => l !== null);
  return lines.length === 0 ? null : combineSmiLines(lines);
}

/** One reading through a single nvidia-smi call, or why there is none. */
export async function readNvidiaSmi(timeoutMs = 5000): Promise<Reading | { error: string }> {
  const r = await execText('nvidia-smi', NVIDIA_SMI_QUERY, timeoutMs);
  if (!r.ok) return { error: r.error };
  return parseNvidiaSmiCsv(r.stdout) ?? { error: 'nvidia-smi printed no GPU line' };
}
