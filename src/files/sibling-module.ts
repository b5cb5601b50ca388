// A module beside another, named as it is on disk where the code runs: `.ts` from the sources (tsx, vitest), `.js` in
// the built package (dist/, which holds no sources). Worker threads are started from such files, and naming the
// `.ts` always broke the built package.
import { extname } from 'node:path';

/** The module `stem` in the folder of the module whose import.meta.url is `of`, with that module's extension. */
export function siblingModule(of: string, stem: string): URL {
  return new URL(`./${stem}${extname(new URL(of).pathname)}`, of);
}
