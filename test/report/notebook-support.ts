// What every headless notebook run must show, over the committed results (npm run test:reproduce) or a sample.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { type NotebookRun, ROOT } from '../../scripts/notebooks.js';
import { copyResultsSample } from './support.js';

interface Out {
  output_type: string;
  text?: string[];
  data?: Record<string, string[]>;
}
export interface Cell {
  cell_type: string;
  execution_count?: number | null;
  outputs?: Out[];
}

/** The run succeeded, every code cell ran and printed something, and at least one displayed an SVG chart. */
export function expectRanWhole(run: NotebookRun): Cell[] {
  expect(run.error).toBeNull();
  expect(run.ok).toBe(true);
  const code = (run.notebook.cells as Cell[]).filter((c) => c.cell_type === 'code');
  for (const c of code) {
    expect(c.execution_count).not.toBeNull();
    expect(c.outputs!.length).toBeGreaterThan(0);
  }
  expect(
    code.some((c) =>
      c.outputs!.some((o) => o.output_type === 'display_data' && o.data?.['image/svg+xml']?.join('').includes('<svg')),
    ),
  ).toBe(true);
  return code;
}

/**
 * A temp folder laid out like this checkout for the notebooks (src, experiments, fixtures and node_modules linked
 * from it, the notebooks copied) whose results/ is a sample of the committed results: a cell's `../results` reads it.
 */
export function rootWithSample(): string {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-nb-'));
  for (const d of ['src', 'experiments', 'fixtures', 'node_modules', 'package.json'])
    symlinkSync(join(ROOT, d), join(root, d));
  mkdirSync(join(root, 'notebooks'));
  for (const f of readdirSync(join(ROOT, 'notebooks')))
    copyFileSync(join(ROOT, 'notebooks', f), join(root, 'notebooks', f));
  renameSync(copyResultsSample(), join(root, 'results'));
  return root;
}
