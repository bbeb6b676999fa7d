import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time: vitest's default on a 2-core machine is one (cores - 1), which left a
    // core idle through the 25-minute suite. Tests share no fixed ports, caches or paths.
    maxWorkers: 2,
    allowOnly: false,
  },
});
