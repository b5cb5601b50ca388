// `npm run build` (and `npm pack`'s prepack): the package as Node runs it without tsx or the TypeScript sources.
// The modules are transformed file by file with esbuild, as tsx transforms them when the CLI runs from a clone, so
// the built package behaves as the sources do; tsc writes the declarations of the library surface (src/index.ts and
// what it reaches), which the type check has already vetted; and the files the modules read beside themselves at
// run time (tables, prompts) are copied next to them.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = 'dist';
/** The trees the package runs: the command line and library (src/) and the study definitions it imports. */
const TREES = ['src', 'experiments'];

const isTypeScript = (name: string) => /\.[cm]?ts$/.test(name) && !name.endsWith('.d.ts');

/** Files under `dir` (relative to ROOT), sorted; TypeScript modules or everything else. */
export function filesUnder(dir: string, typescript: boolean): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && isTypeScript(e.name) === typescript)
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

function build(): void {
  rmSync(join(ROOT, DIST), { recursive: true, force: true });
  buildSync({
    absWorkingDir: ROOT,
    entryPoints: TREES.flatMap((t) => filesUnder(t, true)),
    outdir: DIST,
    outbase: '.',
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  for (const file of TREES.flatMap((t) => filesUnder(t, false)).filter((f) => f.startsWith('src/'))) {
    mkdirSync(dirname(join(ROOT, DIST, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(ROOT, DIST, file));
  }
}

build();
