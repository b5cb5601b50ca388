// Library and study apart (issue 17, item 7): src/ holds the generic evaluator, engine and registry; what is specific
// to a study lives in experiments/<study>/ and reaches src/ only through the CLI's one seam, which names it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STUDY } from '../../src/cli/study.js';
import { studyFiles } from '../../src/study/preregistration.js';

/** The one file that may name the study: it loads the definition. */
const SEAM = 'src/cli/study.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory()
      ? sources(path)
      : path.endsWith('.ts')
        ? [relative(process.cwd(), path).split(sep).join('/')]
        : [];
  });
}

describe('library and study apart', () => {
  it('no file under src/ names the chapter 10 study but the seam that loads it', () => {
    const naming = sources('src').filter((f) => /ch10/i.test(readFileSync(f, 'utf8')));
    expect(naming).toEqual([SEAM]);
  });

  it("the preregistration the library reads is the one in the loaded study's folder", () => {
    const files = studyFiles(STUDY.name);
    expect(files.preregistration).toBe(`experiments/${STUDY.name}/preregistration.json`);
    expect(readFileSync(files.preregistration, 'utf8')).toContain(`"study": "${STUDY.name}"`);
    expect(studyFiles('other-study').prose).toBe('experiments/other-study/preregistration.md');
  });
});
