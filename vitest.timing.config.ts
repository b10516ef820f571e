import { defineConfig } from 'vitest/config';
import { testHomeEnv } from './vitest.home.js';

// Checks that compare measured times with a known schedule: npm run bench, not npm
// test, since a busy machine moves wall-clock times. They run one file at a
// time after the rest, so they measure our client and the simulator, not the
// other test files competing for the same two cores.
export default defineConfig({
  test: {
    include: ['src/**/*.timing.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    env: testHomeEnv,
    globalSetup: ['./vitest.home.ts'],
    setupFiles: ['./vitest.worker-home.ts'],
  },
});
