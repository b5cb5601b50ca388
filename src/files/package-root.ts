// The folder holding prunelab's package.json, found from where this code runs: the sources (src/files/), the build
// (dist/src/files/) or the launcher's compiled copy inside the clone (.cache/prunelab/<key>/src/files/, which holds
// no package.json of its own), so it is looked for rather than counted.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`internal: no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
