/**
 * nvidia-smi streaming: one `nvidia-smi --query-gpu=… -lms N` process for the whole
 * run (started with the first level, stopped by `close()`), printing a line per GPU
 * every N ms; each level keeps the readings that arrive inside its window. A
 * level shorter than the first streamed reading gets one reading taken at its
 * end, and says so. Should goodput die, the process dies on its next write to the
 * closed pipe.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { GpuSample } from '../core/index.js';
import type { GpuSource } from './gpu-source.js';
import { NVIDIA_SMI_QUERY, type SmiLine, combineSmiLines, parseSmiLine, readNvidiaSmi } from './nvidia-smi.js';

const MAX_SAMPLES = 100_000;
const NOT_STARTED = 'the level ended before its measured requests started';

/** How long `close()` waits, ms. */
export interface NvidiaSmiCloseTimeouts {
  /** After SIGTERM, before SIGKILL. Default 2000. */
  termGraceMs?: number;
  /** After SIGKILL, before giving up waiting. Default 2000. */
  killGraceMs?: number;
}

/** Resolves true when `p` settles within `ms`, false otherwise; the timer never holds the process. */
async function within(p: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([p.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Streams readings every `intervalMs` (default 200 ms). */
export function nvidiaSmiSource(intervalMs = 200, timeouts: NvidiaSmiCloseTimeouts = {}): GpuSource {
  const { termGraceMs = 2000, killGraceMs = 2000 } = timeouts;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let error: string | null = null;
  let pending: SmiLine[] = [];
  let pendingAt = 0;
  let window: GpuSample[] | null = null;
  /** GPU lines in, and first GPU index of, the last whole reading (0 / Infinity before the first). */
  let gpuCount = 0;
  let firstIndex = Infinity;

  /**
   * Records the pending reading unless it is cut short, which would understate
   * summed memory: fewer lines than the last whole reading, when it is the
   * last one at a stop (`next` false) or when it did not begin at the first
   * GPU (its start fell before a level's start). A reading that begins at the
   * first GPU and is followed by the next is whole even with fewer GPUs.
   */
  const flush = (next: boolean) => {
    const first = pending[0];
    const whole = first !== undefined && (pending.length >= gpuCount || (next && first.index <= firstIndex));
    if (first !== undefined && whole) {
      gpuCount = pending.length;
      firstIndex = first.index;
      if (window !== null && window.length < MAX_SAMPLES) window.push({ atMs: pendingAt, ...combineSmiLines(pending) });
    }
    pending = [];
  };
  const onLine = (text: string) => {
    const line = parseSmiLine(text);
    if (line === null) return;
    // A GPU index that does not grow starts the next reading.
    const last = pending[pending.length - 1];
    if (last !== undefined && line.index <= last.index) flush(true);
    if (pending.length === 0) pendingAt = performance.now();
    pending.push(line);
  };
  const launch = () => {
    error = null;
    const proc = spawn('nvidia-smi', [...NVIDIA_SMI_QUERY, '-lms', String(intervalMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.unref();
    let stderr = '';
    proc.stderr?.on('data', (b: Buffer) => {
      if (stderr.length < 2000) stderr += b.toString();
    });
    if (proc.stdout) createInterface({ input: proc.stdout }).on('line', onLine);
    exited = new Promise<void>((resolve) => {
      proc.once('error', (e: NodeJS.ErrnoException) => {
        error = e.code === 'ENOENT' ? 'nvidia-smi is not on PATH' : `nvidia-smi failed: ${e.message}`;
        child = null;
        resolve();
      });
      proc.once('close', (code, signal) => {
        if (signal === null && error === null) error = `nvidia-smi exited with code ${code}${stderr.trim() ? `: ${stderr.trim().split('\n')[0]}` : ''}`;
        child = null;
        resolve();
      });
    });
  };

  return {
    kind: 'nvidia-smi',
    label: 'nvidia-smi',
    start() {
      pending = [];
      window = [];
      if (child === null) launch();
    },
    async stop() {
      if (window === null) return { source: 'nvidia-smi', samples: [], reason: NOT_STARTED, notes: [], warnings: [] };
      flush(false);
      const samples = window;
      window = null;
      const notes: string[] = [];
      if (samples.length === 0 && error === null) {
        const once = await readNvidiaSmi();
        if (!('error' in once)) {
          samples.push({ atMs: performance.now(), ...once });
          notes.push(`the level ended before nvidia-smi's first streamed reading; one reading was taken at its end`);
        }
      }
      const reason = samples.length === 0 ? (error ?? 'nvidia-smi printed no reading') : null;
      return { source: 'nvidia-smi', samples, reason, notes, warnings: [], intervalMs };
    },
    async close() {
      const proc = child;
      if (proc !== null) {
        error = 'closed';
        // Held again so the process waits for the exit it asks for — but never for
        // ever: nvidia-smi can hang, and a sweep's finally must return.
        proc.ref();
        proc.kill('SIGTERM');
        if (await within(exited, termGraceMs)) return;
        proc.kill('SIGKILL');
        if (await within(exited, killGraceMs)) return;
        proc.unref();
        child = null;
      }
    },
  };
}
