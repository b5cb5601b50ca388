// @ts-check
// Loaded into a child run by test/cli/tamper.test.ts (node --import): before each change the run makes
// to a path under PRUNELAB_TEST_PAUSE_DIR, it names the change on fd 3 and waits for a byte on fd 4. While it waits
// the folder is exactly what a kill -9 at that moment would leave, so one run lets the test copy the folder at every
// phase of a swap, and kill the run for real at the last one, where five runs killed after fixed delays each hit one
// moment by chance (most of them before the run had written anything, or after it had finished).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

export const PAUSE_DIR = 'PRUNELAB_TEST_PAUSE_DIR';

/** The synchronous calls a run changes its output folder with (the writer uses no asynchronous ones). */
const CHANGES = ['mkdirSync', 'writeFileSync', 'renameSync', 'rmSync', 'openSync', 'unlinkSync', 'copyFileSync'];

const dir = process.env[PAUSE_DIR];

/**
 * @param {string} change
 * @param {unknown} path
 */
function pause(change, path) {
  if (dir === undefined || typeof path !== 'string' || !path.startsWith(dir)) return;
  fs.writeSync(3, `${JSON.stringify({ change, path: path.slice(dir.length) })}\n`);
  const byte = Buffer.alloc(1);
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      // 0 is the test's end of the pipe closing: go on.
      if (fs.readSync(4, byte, 0, 1, null) >= 0) return;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EAGAIN') throw err;
    }
    Atomics.wait(nap, 0, 0, 1);
  }
}

if (dir !== undefined) {
  const table = /** @type {Record<string, (...args: unknown[]) => unknown>} */ (/** @type {unknown} */ (fs));
  for (const name of CHANGES) {
    const original = /** @type {(...args: unknown[]) => unknown} */ (table[name]);
    /** @param {unknown[]} args */
    table[name] = (...args) => {
      pause(name, args[0]);
      return original(...args);
    };
  }
  // The sources import these by name from node:fs; this carries the wrapped functions into those bindings.
  syncBuiltinESMExports();
}
