import { defineConfig } from 'vitest/config';
import { REPRODUCE } from './vitest.config.js';

/**
 * npm run test:reproduce: each committed artefact regenerated whole from scratch and compared byte for byte with what
 * is committed (the generated corpus, the study's results, the report, the notebooks, the leak audit). They take
 * minutes, so npm test runs sampled counterparts instead (docs/running.md, "Tests", names each). Every file in its own
 * process: the heavy ones run the CLI and subprocesses, and isolation costs little beside them.
 */
export default defineConfig({
  test: {
    include: [REPRODUCE],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['test/support/global-tmp.ts'],
  },
});
