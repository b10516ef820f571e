import { defineConfig } from 'vitest/config';
import { patient } from './src/test-support/patience.js';
import { testHomeEnv } from './vitest.home.js';

// Checks that compare measured times with a known schedule. npm run bench holds
// their wall-clock bounds; npm test runs the same files with GOODPUT_TIMING=relaxed
// (src/test-support/wall-clock.ts), so a busy machine cannot fail them but any
// other break does. They run one file at a time after the rest, so they measure
// our client and the simulator, not other test files competing for two cores.
export default defineConfig({
  test: {
    include: ['src/**/*.timing.test.ts'],
    testTimeout: patient(120_000),
    hookTimeout: patient(60_000),
    fileParallelism: false,
    env: testHomeEnv,
    globalSetup: ['./vitest.home.ts'],
    setupFiles: ['./vitest.worker-home.ts'],
  },
});
