import { defineConfig } from 'vitest/config';
import { PACKAGE } from './vitest.config.js';

/**
 * npm run test:package: the package as a consumer gets it (test/package/install.test.ts): npm pack builds dist/, the
 * tarball is installed into empty projects on Node 20 and, when PRUNELAB_NODE22 names one (`. .ci/node22`), on Node 22,
 * and its bin, library and declarations are used from there. About a minute of npm and tsc, so npm test runs its
 * counterpart, test/package/files.test.ts, instead (docs/running.md, "The test tiers").
 */
export default defineConfig({
  test: {
    include: [PACKAGE],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    globalSetup: ['test/support/global-tmp.ts'],
  },
});
