// The run's temporary folder (test/support/global-tmp.ts) sits directly in the machine's temp directory, however many
// vitest projects call the global setup: nested folders made paths too long for Chromium's socket.
import { basename, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { expect, it } from 'vitest';

it('runs every test file in one temp folder of this run, not nested in another', () => {
  expect(basename(tmpdir())).toMatch(/^prunelab-tests-/);
  expect(basename(dirname(tmpdir()))).not.toMatch(/^prunelab-tests-/);
  expect(process.env.PRUNELAB_TESTS_TMPDIR).toBe(tmpdir());
});
