/**
 * GPU memory from `nvidia-smi`, polled while a level runs. Readings of every
 * GPU are summed (a tensor-parallel server spans several). `[N/A]` fields and a
 * missing binary yield "not available", never a zero.
 */
import { execFile } from 'node:child_process';

const QUERY = ['--query-gpu=index,name,memory.used,memory.total', '--format=csv,noheader,nounits'];

export interface GpuReading { gpu: string; usedMiB: number; totalMiB: number }

/** Parses nvidia-smi CSV (one line per GPU); null when no line has a numeric memory reading. */
export function parseNvidiaSmiCsv(text: string): GpuReading | null {
  const names: string[] = [];
  let used = 0;
  let total = 0;
  for (const line of text.split(/\r?\n/)) {
    const fields = line.split(',').map((f) => f.trim());
    if (fields.length < 4) continue;
    const u = Number(fields[2]);
    const t = Number(fields[3]);
    if (fields[2] === '' || !Number.isFinite(u)) continue;
    names.push(fields[1] as string);
    used += u;
    if (Number.isFinite(t)) total += t;
  }
  if (names.length === 0) return null;
  const distinct = [...new Set(names)];
  const gpu = names.length > 1 && distinct.length === 1 ? `${names.length}× ${distinct[0]}` : distinct.join(' + ');
  return { gpu, usedMiB: used, totalMiB: total };
}

/** One reading, or the reason there is none (binary missing, failed, or no numeric field). */
export function readNvidiaSmi(timeoutMs = 5000): Promise<GpuReading | { error: string }> {
  return new Promise((resolve) => {
    execFile('nvidia-smi', QUERY, { timeout: timeoutMs }, (err, stdout) => {
      if (err) {
        const code = (err as NodeJS.ErrnoException).code;
        resolve({ error: code === 'ENOENT' ? 'nvidia-smi is not on PATH' : `nvidia-smi failed: ${err.message.split('\n')[0]}` });
        return;
      }
      resolve(parseNvidiaSmiCsv(stdout) ?? { error: 'nvidia-smi reported no memory reading ([N/A])' });
    });
  });
}
