import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notebookFiles, ROOT, runNotebook } from '../../scripts/notebooks.js';
import { Manifest } from '../../src/artifacts/schema.js';
import { type Cell, expectRanWhole, rootWithSample } from './notebook-support.js';

describe('notebooks', () => {
  const files = notebookFiles(join(ROOT, 'notebooks'));

  it('there are at least two', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  // The committed outputs over the whole results are test/reproduce/notebooks.test.ts; here each notebook runs over
  // a sample of them, in a folder laid out like the package (src, experiments, fixtures linked from this checkout).
  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))(
    '%s runs headless over a sample of the results, every code cell producing output',
    (_, file) => {
      const root = rootWithSample();
      try {
        const fixtures = Manifest.parse(
          JSON.parse(readFileSync(join(root, 'results', 'manifest.json'), 'utf8')),
        ).fixtures;
        const code = expectRanWhole(runNotebook(join(root, 'notebooks', basename(file)), root));
        // The notebook read the sample, not the committed results beside this checkout.
        const shown = code.flatMap((c) =>
          c.outputs!.flatMap((o) => [...(o.text ?? []), ...Object.values(o.data ?? {}).flat()]),
        );
        expect(shown.join('')).toContain(`${fixtures.length} fixtures`);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  it('reports a failing cell as an error on that cell', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-nb-'));
    try {
      const file = join(dir, 'broken.ipynb');
      const cell = (source: string) => ({
        cell_type: 'code',
        metadata: {},
        source: [source],
        execution_count: null,
        outputs: [],
      });
      writeFileSync(
        file,
        JSON.stringify({
          nbformat: 4,
          nbformat_minor: 4,
          metadata: {},
          cells: [cell("console.log('first');"), cell("throw new Error('boom');"), cell("console.log('never');")],
        }),
      );
      const run = runNotebook(file);
      expect(run.ok).toBe(false);
      expect(run.error).toContain('boom');
      const [first, second, third] = run.notebook.cells as Cell[];
      expect(first!.outputs).toEqual([{ output_type: 'stream', name: 'stdout', text: ['first\n'] }]);
      expect(second!.outputs!.some((o) => o.output_type === 'error')).toBe(true);
      expect(third!.execution_count).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
