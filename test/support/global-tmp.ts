// Every temporary folder the tests make goes under one folder of this run, removed when the run ends, so a test
// run leaves nothing behind in the machine's temp directory. The forked workers inherit TMPDIR, and os.tmpdir()
// reads it.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Set while this run's folder exists, so that a second call of this setup reuses it. */
const RUN_TMP = 'PRUNELAB_TESTS_TMPDIR';

export default function setup(): () => Promise<void> {
  // vitest calls a global setup once for the root config and once per project that extends it. Nesting a new folder
  // in the previous one each time made paths too long for Chromium's socket (the viewer's tests could not launch it:
  // "Socket path too long"), so every call after the first reuses the first one's folder.
  if (process.env[RUN_TMP] !== undefined) return async () => {};
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), 'prunelab-tests-'));
  process.env.TMPDIR = dir;
  process.env[RUN_TMP] = dir;
  return async () => {
    delete process.env[RUN_TMP];
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    // Asynchronous on purpose: vitest runs this teardown while its forked workers are still being stopped, and the
    // stop is a message exchange on this process's event loop. A synchronous removal of a large tree (the package
    // test's installs, tens of thousands of files, up to 100 s on a busy disk) blocked that loop, so each worker's
    // stop outlived vitest's 10 s teardown timer: "Timeout terminating forks worker".
    await rm(dir, { recursive: true, force: true });
  };
}
