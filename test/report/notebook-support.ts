// What every headless notebook run must show, over the committed results (npm run test:reproduce) or a sample.
import { expect } from 'vitest';
import type { NotebookRun } from '../../scripts/notebooks.js';

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
