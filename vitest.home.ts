import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Commands that store runs by default (goodput demo) write here during tests, never into the real ~/.goodput. */
export const testHomeEnv = { GOODPUT_HOME: join(tmpdir(), `goodput-test-home-${process.pid}`) };
