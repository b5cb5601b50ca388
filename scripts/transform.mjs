// @ts-check
// The one piece of code that turns TypeScript trees into the JavaScript Node runs, shared by `npm run build` (dist/)
// and the launcher's cache (scripts/compiled.mjs). Each module is transformed on its own by esbuild, as tsx transforms
// it, never bundled: every module keeps its place, so `import.meta.url`-relative files, `siblingModule` and the worker
// threads started from files find what they find from the sources. The files the modules read beside themselves at
// run time (src/: tables, prompts, prices) are copied next to them. Plain JavaScript, because the launcher runs it
// before anything can load TypeScript.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The trees the package runs: the command line and library (src/) and the study definitions it imports. */
export const TREES = ['src', 'experiments'];

/** @param {string} name */
export const isTypeScript = (name) => /\.[cm]?ts$/.test(name) && !name.endsWith('.d.ts');

/**
 * Files under `dir` (relative to `root`, with `/` between folders), sorted; TypeScript modules or everything else.
 * @param {string} root
 * @param {string} dir
 * @param {boolean} typescript
 * @returns {string[]}
 */
export function filesUnder(root, dir, typescript) {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && isTypeScript(e.name) === typescript)
    .map((e) => relative(root, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/**
 * Every file `transformTrees` reads: the modules of each tree and the run-time files beside src/'s modules.
 * @param {string} root
 * @param {readonly string[]} trees
 * @returns {{ modules: string[], copied: string[] }}
 */
export function inputsOf(root, trees) {
  return {
    modules: trees.flatMap((t) => filesUnder(root, t, true)),
    copied: trees.filter((t) => t === 'src').flatMap((t) => filesUnder(root, t, false)),
  };
}

/**
 * Transforms `trees` under `root` into `out` (absolute, or relative to `root`), keeping each file's path.
 * esbuild is imported here rather than at the top so that a launch that reuses its cache never loads it, and called
 * through its asynchronous API: the synchronous one keeps a worker thread of its own in this process for the rest of
 * its life, which a launch that builds and then runs the study would carry all run.
 * @param {string} root
 * @param {string} out
 * @param {readonly string[]} [trees]
 */
export async function transformTrees(root, out, trees = TREES) {
  const { build } = await import('esbuild');
  const { modules, copied } = inputsOf(root, trees);
  await build({
    absWorkingDir: root,
    entryPoints: modules,
    outdir: out,
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  for (const file of copied) {
    const to = resolve(root, out, file);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(root, file), to);
  }
}
