/**
 * Pins the bench's client (this process, every thread) to CPU 0 and the
 * simulator to CPU 1 when there are two cores: a served model runs on its own
 * hardware, and two processes taking turns on one core would be measured instead.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The machine's cores, read before any pinning narrows what this process may use. */
const CORES = availableParallelism();

/** Pins this process to CPU 0 and `simPid` to CPU 1; says what it did. */
export function pin(simPid: number | undefined): string {
  if (process.platform !== 'linux' || CORES < 2 || simPid === undefined) return 'not pinned (fewer than 2 cores or not Linux)';
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', '1', String(simPid)], { stdio: 'ignore' });
    return 'client pinned to CPU 0, simulator to CPU 1';
  } catch {
    return 'not pinned (taskset failed or is missing)';
  }
}
