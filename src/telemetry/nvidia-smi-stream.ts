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

/** Streams readings every `intervalMs` (default 200 ms). */
export function nvidiaSmiSource(intervalMs = 200): GpuSource {
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let error: string | null = null;
  let pending: SmiLine[] = [];
  let pendingAt = 0;
  let window: GpuSample[] | null = null;

  const flush = () => {
    if (pending.length > 0 && window !== null && window.length < MAX_SAMPLES) window.push({ atMs: pendingAt, ...combineSmiLines(pending) });
    pending = [];
  };
  const onLine = (text: string) => {
    const line = parseSmiLine(text);
    if (line === null) return;
    // A GPU index that does not grow starts the next reading.
    const last = pending[pending.length - 1];
    if (last !== undefined && line.index <= last.index) flush();
    if (pending.length === 0) pendingAt = performance.now();
    pending.push(line);
  };
  const launch = () => {
    error = null;
    const proc = spawn('nvidia-smi', [...NVIDIA_SMI_QUERY, '-lms', String(intervalMs)], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    proc.unref();
    let stderr = '';
    proc.stderr?.on('data', (b: Buffer) => { if (stderr.length < 2000) stderr += b.toString(); });
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
    kind: 'nvidia-smi', label: 'nvidia-smi',
    start() {
      pending = [];
      window = [];
      if (child === null) launch();
    },
    async stop() {
      if (window === null) return { source: 'nvidia-smi', samples: [], reason: NOT_STARTED, notes: [], warnings: [] };
      flush();
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
      const reason = samples.length === 0 ? error ?? 'nvidia-smi printed no reading' : null;
      return { source: 'nvidia-smi', samples, reason, notes, warnings: [] };
    },
    async close() {
      const proc = child;
      if (proc !== null) {
        error = 'closed';
        // Held again so the process waits for the exit it asks for.
        proc.ref();
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
