// The committed notebooks hold exactly the outputs a headless run over the committed results gives (npm run
// notebooks). test/report/notebooks.test.ts runs each over a sample of the results in npm test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notebookFiles, ROOT, runNotebook, serialise } from '../../scripts/notebooks.js';
import { expectRanWhole } from '../report/notebook-support.js';

describe('notebooks over the committed results', () => {
  it.each(notebookFiles(join(ROOT, 'notebooks')).map((f) => [f.slice(ROOT.length + 1), f]))(
    '%s runs headless, every code cell producing output, and matches its committed outputs',
    (_, file) => {
      const run = runNotebook(file);
      expectRanWhole(run);
      expect(serialise(run.notebook), 'run `npm run notebooks` and commit the notebooks').toBe(
        readFileSync(file, 'utf8'),
      );
    },
  );
});
