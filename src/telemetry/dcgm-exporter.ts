/**
 * NVIDIA's DCGM exporter over HTTP (`--dcgm-url`, e.g. http://gpu-host:9400/metrics):
 * framebuffer memory (MiB), utilisation (%), power (W) and the total-energy counter
 * (mJ), one series per GPU. Fields without data carry huge sentinel integers
 * (e.g. 9223372036854775794); those are rejected, never averaged in. The exporter
 * samples every 30 s by default, so a level shorter than that sees one value: the
 * source says so.
 */
import { type GpuSample, type PromScrape, seriesList } from '../core/index.js';
import { scrapeMetrics } from './metrics-endpoint.js';
import { type GpuSource, pollingGpuSource } from './gpu-source.js';

type Reading = Omit<GpuSample, 'atMs'>;

/** DCGM's blank/not-found/not-supported/not-permissioned values start here (int32 and int64/fp64 families). */
const INT32_BLANK = 0x7ffffff0;
const FP64_BLANK = 2 ** 47;

/** True for a DCGM no-data sentinel (or a negative reading). `int32` fields (memory, utilisation) have their own family. */
export function isDcgmSentinel(value: number, int32: boolean): boolean {
  if (!Number.isFinite(value) || value < 0 || value >= FP64_BLANK) return true;
  return int32 && value >= INT32_BLANK && value <= 0x7fffffff;
}

const FIELDS = {
  used: { name: 'DCGM_FI_DEV_FB_USED', int32: true },
  free: { name: 'DCGM_FI_DEV_FB_FREE', int32: true },
  reserved: { name: 'DCGM_FI_DEV_FB_RESERVED', int32: true },
  util: { name: 'DCGM_FI_DEV_GPU_UTIL', int32: true },
  power: { name: 'DCGM_FI_DEV_POWER_USAGE', int32: false },
  energy: { name: 'DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION', int32: false },
} as const;

/** Per-GPU values of one field (keyed by the `gpu` label, else UUID), sentinels rejected and named in `rejected`. */
function perGpu(scrape: PromScrape, field: { name: string; int32: boolean }, rejected: string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of seriesList(scrape, field.name)) {
    const gpu = s.labels.gpu ?? s.labels.UUID ?? '0';
    if (isDcgmSentinel(s.value, field.int32)) rejected.push(`${field.name} of GPU ${gpu} (${s.value})`);
    else out.set(gpu, s.value);
  }
  return out;
}

/** The sum over `gpus`, or null when any GPU has no valid value. */
function sumOver(gpus: readonly string[], m: Map<string, number>): number | null {
  if (gpus.length === 0) return null;
  let s = 0;
  for (const g of gpus) {
    const v = m.get(g);
    if (v === undefined) return null;
    s += v;
  }
  return s;
}

/** One reading from a DCGM exporter scrape, and the sentinel values it rejected. */
export function parseDcgm(scrape: PromScrape): { reading: Reading | null; rejected: string[] } {
  const rejected: string[] = [];
  const used = perGpu(scrape, FIELDS.used, rejected);
  const free = perGpu(scrape, FIELDS.free, rejected);
  const reserved = perGpu(scrape, FIELDS.reserved, rejected);
  const util = perGpu(scrape, FIELDS.util, rejected);
  const power = perGpu(scrape, FIELDS.power, rejected);
  const energy = perGpu(scrape, FIELDS.energy, rejected);
  const gpus = [
    ...new Set(
      ['used', 'util', 'power', 'energy'].flatMap((k) =>
        seriesList(scrape, FIELDS[k as keyof typeof FIELDS].name).map((s) => s.labels.gpu ?? s.labels.UUID ?? '0'),
      ),
    ),
  ];
  if (gpus.length === 0) return { reading: null, rejected };
  const names = [
    ...new Set(
      seriesList(scrape, FIELDS.used.name)
        .map((s) => s.labels.modelName)
        .filter((n): n is string => n !== undefined),
    ),
  ];
  const usedMiB = sumOver(gpus, used);
  const freeMiB = sumOver(gpus, free);
  const utils = gpus.map((g) => util.get(g)).filter((v): v is number => v !== undefined);
  const energyMj = sumOver(gpus, energy);
  return {
    reading: {
      name: names.length === 1 ? (gpus.length > 1 ? `${gpus.length}× ${names[0]}` : (names[0] as string)) : names.length > 1 ? names.join(' + ') : null,
      usedMiB,
      totalMiB: usedMiB !== null && freeMiB !== null ? usedMiB + freeMiB + (sumOver(gpus, reserved) ?? 0) : null,
      utilizationPct: utils.length > 0 ? utils.reduce((a, b) => a + b, 0) / utils.length : null,
      powerW: sumOver(gpus, power),
      energyJ: energyMj === null ? null : energyMj / 1000,
    },
    rejected,
  };
}

/** Notes on a level's readings (sentinels seen) and a warning when the exporter never updated during the level. */
export function dcgmNotes(samples: readonly GpuSample[], rejected: ReadonlySet<string>): { notes: string[]; warnings: string[] } {
  const notes: string[] = [];
  const warnings: string[] = [];
  if (rejected.size > 0) notes.push(`rejected DCGM no-data sentinel values: ${[...rejected].slice(0, 5).join(', ')}`);
  const distinct = new Set(samples.map((s) => JSON.stringify([s.usedMiB, s.utilizationPct, s.powerW, s.energyJ])));
  const spanMs = (samples[samples.length - 1]?.atMs ?? 0) - (samples[0]?.atMs ?? 0);
  if (samples.length >= 3 && distinct.size < 2) {
    warnings.push(
      `the DCGM exporter's values did not change in ${samples.length} readings over ${(spanMs / 1000).toFixed(1)} s: its collect interval (30000 ms by default) is longer than the level; start it with -c 500 (or DCGM_EXPORTER_INTERVAL=500)`,
    );
  }
  return { notes, warnings };
}

/** Polls a DCGM exporter every `intervalMs` (default 500 ms). */
export function dcgmSource(url: string, intervalMs = 500): GpuSource {
  const rejected = new Set<string>();
  const read = async () => {
    const r = await scrapeMetrics(url, { timeoutMs: 2000 });
    if (!r.ok) return { error: `DCGM exporter at ${url}: ${r.error}` };
    const { reading, rejected: bad } = parseDcgm(r.scrape);
    for (const b of bad) rejected.add(b);
    return reading ?? { error: `DCGM exporter at ${url} has no DCGM_FI_DEV_* GPU series (is it a DCGM exporter?)` };
  };
  const source = pollingGpuSource('dcgm', 'dcgm-exporter', read, intervalMs, (samples) => dcgmNotes(samples, rejected));
  return {
    ...source,
    start() {
      rejected.clear();
      source.start();
    },
  };
}
