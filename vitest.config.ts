import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that run the study or the report over the committed corpus take tens of seconds on 2 shared cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project runs on (CI and
    // development), that is one file at a time and one idle core. Two workers run two files at once; the test files
    // share no state but the per-run temp folder (each makes its own folders in it).
    maxWorkers: 2,
    globalSetup: ['test/support/global-tmp.ts'],
  },
});
