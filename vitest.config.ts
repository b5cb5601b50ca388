import { defineConfig } from 'vitest/config';

/**
 * Files that share one module graph per worker instead of each loading its own: importing the sources (tsx's
 * transform, zod schemas, the registries) cost each file one to three seconds of CPU, paid again by every file.
 * A file belongs here only if it changes no process state another file could see: no module mocks (vi.mock), no
 * spies or fake timers, no writes to process.env or the working folder, no listeners on the process. The CLI is
 * driven in-process through an injected io (test/support/cli.ts), which reads nothing from the process, and the
 * caches modules keep (shell parses, echo drafts, prompts, the pricing table) are pure memos of their inputs, so
 * files that share them see what they would have computed. The unit folders first moved here cut their CPU time by
 * about a third (52 s to 33 s of user time); docs/speed.md, "Test suite, December 4 (third)", has the rest.
 */
/**
 * The reproduce tier (npm run test:reproduce, vitest.reproduce.config.ts): the checks that regenerate a committed
 * artefact whole and compare it byte for byte. Each has a sampled counterpart here, so npm test still catches the change.
 */
export const REPRODUCE = 'test/reproduce/**/*.test.ts';
/**
 * The package tier (npm run test:package, vitest.package.config.ts): the tarball built, packed, installed and run on
 * Node 20 and 22, a minute of npm and tsc that a release needs and an edit does not. Its counterpart here,
 * test/package/files.test.ts, checks what the package would hold and what its entry points import, without building.
 */
export const PACKAGE = 'test/package/install.test.ts';

const SHARED = [
  'test/policy/**/*.test.ts',
  'test/score/**/*.test.ts',
  'test/fixture/**/*.test.ts',
  'test/oracle/**/*.test.ts',
  'test/artifacts/**/*.test.ts',
  'test/accounting/**/*.test.ts',
  'test/messages.test.ts',
  'test/corpus/**/*.test.ts',
  'test/report/**/*.test.ts',
  'test/engine/**/*.test.ts',
  'test/providers/**/*.test.ts',
  'test/traces/**/*.test.ts',
  'test/study/**/*.test.ts',
  'test/economics/**/*.test.ts',
  'test/pruners/**/*.test.ts',
  'test/audit/**/*.test.ts',
  'test/behaviour/**/*.test.ts',
  'test/canonical/**/*.test.ts',
  'test/bench/**/*.test.ts',
  'test/architecture/**/*.test.ts',
  'test/docs/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/view/model.test.ts',
  // The CLI files that mock nothing. A user's policy or pruner module is bundled and run in a sandboxed child
  // (src/sandbox), never imported into this process's module graph, so the files that load one share it too. In
  // their own processes each paid one to four seconds of import and transform: the six that joined last cut the
  // suite from 170-173 s to 162-164 s on a 2-core machine (docs/speed.md, "Test suite and report, December 6 (third)").
  'test/cli/bad-inputs.test.ts',
  'test/cli/bin.test.ts',
  'test/cli/commands.test.ts',
  'test/cli/experiment.test.ts',
  'test/cli/frozen.test.ts',
  'test/cli/generate.test.ts',
  'test/cli/policy-mechanism.test.ts',
  'test/cli/policy-module.test.ts',
  'test/cli/progress.test.ts',
  'test/cli/pruner.test.ts',
  'test/cli/results.test.ts',
  'test/cli/sandbox.test.ts',
  'test/cli/tamper.test.ts',
  'test/package/files.test.ts',
  'test/global-tmp.test.ts',
];

export default defineConfig({
  test: {
    // Tests that run the study or the report over the committed corpus take tens of seconds on 2 shared cores.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core machines this project runs on (CI and
    // development), that is one file at a time and one idle core. Three workers on two cores: many files wait on
    // something other than this process's CPU (child processes, worker threads loading, Chromium, deadlines and
    // polls), and a third file runs meanwhile. Quiet machine, three pairs alternating: 117 to 120 s with two, 104 to
    // 113 s with three (docs/speed.md, "Test suite, December 5 (fifth)"). The test files share no state but the
    // per-run temp folder (each makes its own folders in it).
    maxWorkers: 3,
    globalSetup: ['test/support/global-tmp.ts'],
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      // Every other file in its own process: test/files mocks node:fs (vi.mock); the launcher's tests build compiled
      // copies and import modules from them, and start, kill and watch processes; the site test drives Chromium.
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...SHARED, REPRODUCE, PACKAGE] },
      },
    ],
  },
});
