import { defineConfig } from 'vitest/config';
import { patient } from './src/test-support/patience.js';
import { testHomeEnv } from './vitest.home.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Wall-clock accuracy checks are part of npm run bench (vitest.timing.config.ts), not of npm test.
    exclude: ['src/**/*.timing.test.ts', 'node_modules/**', 'dist/**'],
    // Hang guards, not performance checks: scaled for a loaded machine (src/test-support/patience.ts).
    testTimeout: patient(60_000),
    hookTimeout: patient(60_000),
    // Integration tests start real servers; two cores do not like many at once.
    maxWorkers: 2,
    env: testHomeEnv,
    globalSetup: ['./vitest.home.ts'],
    setupFiles: ['./vitest.worker-home.ts'],
  },
});
