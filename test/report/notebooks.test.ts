import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notebookFiles, ROOT, runNotebook, serialise } from '../../scripts/notebooks.js';

interface Out {
  output_type: string;
  text?: string[];
  data?: Record<string, string[]>;
}
interface Cell {
  cell_type: string;
  execution_count?: number | null;
  outputs?: Out[];
}

describe('notebooks', () => {
  const files = notebookFiles(join(ROOT, 'notebooks'));

  it('there are at least two', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it.each(files.map((f) => [f.slice(ROOT.length + 1), f]))(
    '%s runs headless, every code cell producing output, and matches its committed outputs',
    (_, file) => {
      const run = runNotebook(file);
      expect(run.error).toBeNull();
      expect(run.ok).toBe(true);
      const code = (run.notebook.cells as Cell[]).filter((c) => c.cell_type === 'code');
      for (const c of code) {
        expect(c.execution_count).not.toBeNull();
        expect(c.outputs!.length).toBeGreaterThan(0);
      }
      expect(
        code.some((c) =>
          c.outputs!.some(
            (o) => o.output_type === 'display_data' && o.data?.['image/svg+xml']?.join('').includes('<svg'),
          ),
        ),
      ).toBe(true);
      expect(serialise(run.notebook), 'run `npm run notebooks` and commit the notebooks').toBe(
        readFileSync(file, 'utf8'),
      );
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
