import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // Timing-accuracy tests run afterwards, alone (vitest.timing.config.ts).
    exclude: ['src/**/*.timing.test.ts', 'node_modules/**', 'dist/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests start real servers; two cores do not like many at once.
    maxWorkers: 2,
    // Commands that store runs by default (goodput demo) write here, never into the real ~/.goodput.
    env: { GOODPUT_HOME: join(tmpdir(), `goodput-test-home-${process.pid}`) },
  },
});
