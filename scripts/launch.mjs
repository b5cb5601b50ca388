#!/usr/bin/env node
// @ts-check
// `node scripts/launch.mjs FILE.ts [arguments]` runs a module of src/, experiments/ or scripts/ as `tsx FILE.ts
// [arguments]` would, but as compiled JavaScript from the cache (scripts/compiled.mjs): tsx's loader hooks and
// transforms would otherwise run in this process and in every worker thread of a run, about 3 s of CPU and 140 MB of
// memory over the full study. The npm scripts of the command line (`npm run experiment` and the others) and
// `npm run bench` enter through here; `npx tsx src/cli/bin.ts COMMAND` still runs the sources directly.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ALLOCATOR, restartForAllocator } from './allocator.mjs';
import { compiledTree, LAUNCH_TREES } from './compiled.mjs';
import { isTypeScript } from './transform.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2];
const source = entry === undefined ? '' : relative(ROOT, resolve(entry)).split(sep).join('/');
if (!isTypeScript(source) || !LAUNCH_TREES.some((t) => source.startsWith(`${t}/`)))
  throw new Error(`usage: node scripts/launch.mjs FILE.ts [arguments], FILE.ts under ${LAUNCH_TREES.join('/, ')}/`);

/** Set in a child the launcher started: the launcher's pid, which the child outlives only if it was killed. */
const LAUNCHER_PID = 'PRUNELAB_LAUNCHER_PID';

/** Signals a terminal or a supervisor sends to stop or interrupt a run; SIGKILL cannot be caught (see below). */
const FORWARDED = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

if (restartForAllocator()) {
  // Not foreground-child (tried): its watchdog stops the child only on a terminal's SIGHUP, so a launcher killed
  // outside a terminal left its child running, and it starts a third Node process for every command.
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, ...ALLOCATOR, [LAUNCHER_PID]: String(process.pid) },
  });
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal));
  // This process ends as its child did: the same exit code, or killed by the same signal.
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    // A signal this process ignores (one inherited as ignored) still ends it, as a shell reports a signal's death.
    setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 100);
  });
} else {
  const launcher = Number(process.env[LAUNCHER_PID]);
  // Not handed on: a process this one starts (a benchmark's run, a policy's sandbox) has another parent.
  delete process.env[LAUNCHER_PID];
  // A launcher killed outright (SIGKILL) forwards nothing: its child, now another process's, stops as it would have.
  if (launcher > 0)
    setInterval(() => {
      if (process.ppid !== launcher) process.kill(process.pid, 'SIGKILL');
    }, 250).unref();
  const { dir, release } = await compiledTree(ROOT);
  process.once('exit', release);
  const file = join(dir, source.replace(/\.[cm]?ts$/, '.js'));
  // The module sees the arguments Node would give it were it started itself: [node, its file, ...arguments].
  process.argv.splice(1, 2, file);
  await import(pathToFileURL(file).href);
}
