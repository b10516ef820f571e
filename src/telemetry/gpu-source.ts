/**
 * One interface for every GPU telemetry source (nvidia-smi, the DCGM exporter,
 * amd-smi, rocm-smi, the engine's own memory gauge): start when a level starts,
 * stop when it ends, and hand back the readings with their source, or why there
 * are none. Most sources are polled; nvidia-smi streams.
 */
import type { GpuCollection, GpuSample } from '../core/index.js';

export const GPU_SOURCE_KINDS = ['nvidia-smi', 'dcgm', 'amd-smi', 'rocm-smi', 'engine'] as const;
export type GpuSourceKind = (typeof GPU_SOURCE_KINDS)[number];
/** What `--gpu-source` accepts. */
export const GPU_SOURCE_CHOICES = ['auto', ...GPU_SOURCE_KINDS, 'none'] as const;
export type GpuSourceChoice = (typeof GPU_SOURCE_CHOICES)[number];

export interface GpuSource {
  readonly kind: GpuSourceKind;
  /** Recorded with every figure, e.g. "nvidia-smi", "dcgm-exporter". */
  readonly label: string;
  /** Starts collecting for a level. */
  start(): void;
  /** Stops and returns the level's readings. */
  stop(): Promise<GpuCollection>;
  /** Ends the source for good (a streaming process); called once, when the run ends. */
  close(): Promise<void>;
}

/** One reading of a polled source: a sample (stamped when it arrives), or why there is none. */
export type GpuRead = () => Promise<Omit<GpuSample, 'atMs'> | { error: string }>;

/** Remarks a source adds from its level's readings: notes, and warnings for the run (e.g. DCGM's update interval). */
export type GpuNotes = (samples: readonly GpuSample[]) => { notes: string[]; warnings: string[] };

const MAX_SAMPLES = 100_000;

/** Sum over GPUs; null when any GPU lacks the figure. */
export function sumAll(xs: ReadonlyArray<number | null>): number | null {
  return xs.length === 0 || xs.some((x) => x === null) ? null : (xs as number[]).reduce((a, b) => a + b, 0);
}

/** A tool's `--json` output parsed, or a message naming the tool when it printed something else. */
export function toolJson(text: string, tool: string): { data: unknown } | { error: string } {
  try {
    return { data: JSON.parse(text) as unknown };
  } catch {
    return { error: `${tool} printed something that is not JSON` };
  }
}

/** A source that calls `read` every `intervalMs` while started, one read at a time. */
export function pollingGpuSource(kind: GpuSourceKind, label: string, read: GpuRead, intervalMs: number, notesFor?: GpuNotes): GpuSource {
  let samples: GpuSample[] = [];
  let errors = 0;
  let lastError: string | null = null;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> | null = null;
  let started = false;

  const sample = () => {
    if (inFlight || samples.length >= MAX_SAMPLES) return;
    inFlight = read()
      .then((r) => {
        if ('error' in r) {
          errors++;
          lastError = r.error;
        } else samples.push({ atMs: performance.now(), ...r });
      })
      .finally(() => {
        inFlight = null;
      });
  };

  return {
    kind,
    label,
    start() {
      started = true;
      samples = [];
      errors = 0;
      lastError = null;
      sample();
      timer = setInterval(sample, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      if (inFlight) await inFlight;
      if (!started) return { source: label, samples: [], reason: 'the level ended before its measured requests started', notes: [], warnings: [] };
      started = false;
      const { notes, warnings } = notesFor ? notesFor(samples) : { notes: [], warnings: [] };
      if (errors > 0 && samples.length > 0) notes.push(`${errors} of ${errors + samples.length} ${label} readings failed: ${lastError}`);
      return { source: label, samples, reason: samples.length === 0 ? (lastError ?? 'no reading was taken') : null, notes, warnings, intervalMs };
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      if (inFlight) await inFlight;
    },
  };
}

/** A source that reads nothing and says why (none chosen, none found). */
export function absentGpuSource(reason: string): Pick<GpuSource, 'start' | 'stop' | 'close'> {
  return { start() {}, stop: async () => ({ source: 'none', samples: [], reason, notes: [], warnings: [] }), close: async () => {} };
}
