import { defineConfig } from 'vitest/config';

/**
 * Folders of pure unit tests: they import modules and call functions, and change no process state (no module
 * mocks, no environment, no working folder). Their files share one module graph per worker instead of each
 * loading its own, which cut these folders' CPU time by about a third (vitest --isolate=false over them, 52 s
 * to 33 s of user time, the same 336 tests passing).
 */
const SHARED = [
  'test/policy/**/*.test.ts',
  'test/score/**/*.test.ts',
  'test/fixture/**/*.test.ts',
  'test/oracle/**/*.test.ts',
  'test/artifacts/**/*.test.ts',
  'test/accounting/**/*.test.ts',
  'test/messages.test.ts',
];

export default defineConfig({
  test: {
    // Tests that run the study or the report over the committed corpus take tens of seconds on 2 shared cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project runs on (CI and
    // development), that is one file at a time and one idle core. Two workers run two files at once; the test files
    // share no state but the per-run temp folder (each makes its own folders in it).
    maxWorkers: 2,
    globalSetup: ['test/support/global-tmp.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      // Every other file in its own process: some mock modules (vi.mock) or drive the CLI, which reads the process.
      { extends: true, test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: SHARED } },
    ],
  },
});
