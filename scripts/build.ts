// `npm run build` (and `npm pack`'s prepack): the package as Node runs it without tsx or the TypeScript sources.
// The modules are transformed file by file with esbuild, as tsx transforms them when the CLI runs from a clone, and
// the files they read beside themselves at run time (tables, prompts) copied next to them (scripts/transform.mjs,
// the same transform the launcher's cache is made with), so the built package behaves as the sources do; tsc writes
// the declarations of the library surface (src/index.ts and what it reaches), which the type check has already vetted.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformTrees } from './transform.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = 'dist';

async function build(): Promise<void> {
  rmSync(join(ROOT, DIST), { recursive: true, force: true });
  await transformTrees(ROOT, DIST);
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

await build();
