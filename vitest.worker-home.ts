import { join } from 'node:path';

// Runs in each worker before its test files: a home of its own under the root
// the config put in GOODPUT_HOME (see vitest.home.ts).
const root = process.env.GOODPUT_HOME;
if (root && !root.includes(`worker-${process.pid}`)) process.env.GOODPUT_HOME = join(root, `worker-${process.pid}`);
const state = process.env.GOODPUT_STATE_DIR;
if (state && !state.includes(`worker-${process.pid}`)) process.env.GOODPUT_STATE_DIR = join(state, `worker-${process.pid}`);
