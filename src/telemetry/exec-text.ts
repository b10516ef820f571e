/**
 * Runs a vendor tool once (nvidia-smi, amd-smi, rocm-smi) and returns what it
 * printed, or a sentence saying why not: not on PATH, timed out, failed.
 */
import { execFile } from 'node:child_process';

export type ExecText = { ok: true; stdout: string } | { ok: false; error: string };

/**
 * @param timeoutMs the tool is killed after this long (default 5000 ms).
 */
export function execText(cmd: string, args: readonly string[], timeoutMs = 5000): Promise<ExecText> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, stdout });
      const e = err as NodeJS.ErrnoException & { killed?: boolean };
      if (e.code === 'ENOENT') return resolve({ ok: false, error: `${cmd} is not on PATH` });
      if (e.killed) return resolve({ ok: false, error: `${cmd} did not answer within ${timeoutMs} ms` });
      const why = (stderr.trim() || e.message).split('\n')[0];
      resolve({ ok: false, error: `${cmd} failed: ${why}` });
    });
  });
}
