// @ts-check
// glibc's malloc settings the launcher (./launch.mjs) starts a command with, and whether it does: one place, which
// the launcher and its tests read.

/**
 * Left to its defaults, glibc gives each thread that allocates an arena of its own and returns freed memory to the
 * system only past a threshold that grows with use, so the native memory behind a study's buffers (fixture bytes,
 * encoded lines, compression, messages between threads) stays resident: the full study peaked at 615 to 650 MiB with
 * the defaults and 525 to 560 MiB with these, for the same CPU (docs/speed.md, "Engine and memory, December 5
 * (third)"). glibc reads them only when a process starts, so the launcher starts the run again as its child with them
 * set. Other C libraries and platforms ignore them, so the launcher does not restart there, nor when the user has
 * set either one.
 */
export const ALLOCATOR = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '131072' };

/** Whether this Node runs on Linux with glibc, whose malloc reads ALLOCATOR. */
export function onGlibc() {
  if (process.platform !== 'linux') return false;
  const report = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report?.getReport() ?? {});
  return report.header?.glibcVersionRuntime !== undefined;
}

/** Whether a process with this environment should start the command again under ALLOCATOR. */
export function restartForAllocator(env = process.env) {
  return Object.keys(ALLOCATOR).every((k) => env[k] === undefined) && onGlibc();
}
