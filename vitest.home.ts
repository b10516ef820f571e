import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Commands that store runs by default (goodput demo, sweep) write under this
 * temporary root during tests, never into the real ~/.goodput. Each worker
 * process gets its own subfolder (vitest.worker-home.ts): the embedded database
 * is one process's at a time, and two test files running at once must not
 * contend for it.
 */
export const testHomeRoot = join(tmpdir(), `goodput-test-home-${process.pid}`);
/** `goodput verify` and `publish --key` remember site versions under GOODPUT_STATE_DIR: here too, never in ~/.local/state. */
export const testHomeEnv = { GOODPUT_HOME: testHomeRoot, GOODPUT_STATE_DIR: join(testHomeRoot, 'state') };

/** Global setup: nothing to start, and the root goes away when the run ends. */
export default function setup(): () => void {
  return () => rmSync(testHomeRoot, { recursive: true, force: true });
}
