import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that run the study or the report over the committed corpus take tens of seconds on 2 shared cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    globalSetup: ['test/support/global-tmp.ts'],
  },
});
