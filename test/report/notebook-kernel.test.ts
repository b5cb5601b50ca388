// The optional Jupyter path of the notebooks (`npm run notebooks -- --kernel deno`): how the kernel's outputs are
// stored, the usage and missing-tool errors, and, where Deno and jupyter-nbconvert are installed (DENO names the
// deno binary), one notebook executed in Deno's kernel writing the same bytes as the headless tsx runner. CI has
// neither tool, so that last test is skipped there; docs/notebooks.md gives the setup.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kernelTools } from '../../scripts/notebook-kernel.js';
import { ROOT, serialise, withKernelOutputs } from '../../scripts/notebooks.js';

const script = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'scripts/notebooks.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });

describe('notebooks in a Jupyter kernel', () => {
  it("stores the kernel's outputs as the headless runner does: lists of lines, no timings, markdown untouched", () => {
    const notebook = {
      nbformat: 4,
      nbformat_minor: 4,
      metadata: { kernelspec: { name: 'prunelab-tsx' } },
      cells: [
        { cell_type: 'markdown', source: ['# t'], metadata: {} },
        { cell_type: 'code', source: ['x'], metadata: {}, outputs: [], execution_count: null },
        { cell_type: 'code', source: ['y'], metadata: {}, outputs: [], execution_count: null },
      ],
    };
    const out = withKernelOutputs(notebook, [
      { cell_type: 'markdown' },
      {
        cell_type: 'code',
        execution_count: 1,
        outputs: [
          { output_type: 'stream', name: 'stdout', text: 'a\nb\n' },
          { output_type: 'display_data', data: { 'image/svg+xml': '<svg>\n</svg>', 'text/plain': '<chart>' } },
        ],
      },
      { cell_type: 'code', execution_count: 2, outputs: [{ output_type: 'error', ename: 'Error', evalue: 'boom' }] },
    ]);
    expect(out.metadata).toEqual(notebook.metadata);
    expect(out.cells[0]).toEqual(notebook.cells[0]);
    expect(out.cells[1]).toEqual({
      ...notebook.cells[1],
      execution_count: 1,
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['a\n', 'b\n'] },
        {
          output_type: 'display_data',
          data: { 'image/svg+xml': ['<svg>\n', '</svg>'], 'text/plain': ['<chart>'] },
          metadata: {},
        },
      ],
    });
    expect(out.cells[2]!.outputs).toEqual([{ output_type: 'error', ename: 'Error', evalue: 'boom', traceback: [] }]);
  });

  it('refuses an argument that is neither --kernel deno nor a notebook, and names a missing deno', () => {
    const bad = script(['--kernel', 'python']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('[PL_USAGE_NOTEBOOK_ARGS]');
    const missing = script(['--kernel', 'deno', 'notebooks/headline.ipynb'], { DENO: join(ROOT, 'no-such-deno') });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('[PL_NOTEBOOK_KERNEL_MISSING]');
    expect(missing.stderr).toContain('@deno/linux-x64-glibc');
  });

  const tools = kernelTools(process.env);
  it.skipIf('missing' in tools)(
    'runs one notebook in Deno’s kernel, writing the bytes the headless runner writes (needs deno and nbconvert)',
    () => {
      // A copy inside notebooks/, so its relative imports resolve as the original's do; removed afterwards.
      const copy = join(ROOT, 'notebooks', '.kernel-test.ipynb');
      try {
        cpSync(join(ROOT, 'notebooks', 'headline.ipynb'), copy);
        const r = script(['--kernel', 'deno', copy]);
        expect(r.stderr).not.toContain('PL_NOTEBOOK');
        expect(r.status).toBe(0);
        expect(readFileSync(copy, 'utf8')).toBe(readFileSync(join(ROOT, 'notebooks', 'headline.ipynb'), 'utf8'));
        expect(serialise(JSON.parse(readFileSync(copy, 'utf8')))).toBe(readFileSync(copy, 'utf8'));
      } finally {
        rmSync(copy, { force: true });
      }
    },
  );
});
