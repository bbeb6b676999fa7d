import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    allowOnly: false,
    projects: [
      {
        extends: true,
        // Unit tests share their workers' module cache: importing the project's modules again for
        // every file cost more time than the tests themselves (4x on tests/unit/parse). Unit tests
        // keep no state in modules and mock nothing, so sharing is safe; `vi.mock` belongs in the
        // isolated projects.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], isolate: false },
      },
      { extends: true, test: { name: 'integration', include: ['tests/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['tests/e2e/**/*.test.ts'] } },
    ],
  },
});
