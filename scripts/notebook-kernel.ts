// The optional path of `npm run notebooks -- --kernel deno`: each notebook executed cell by cell in Deno's Jupyter
// kernel (`deno jupyter`) through Jupyter's own executor (`jupyter nbconvert --execute`, nbclient), from the
// notebook's folder as Jupyter runs it. The kernelspec is written into a temporary Jupyter path, so nothing is
// installed into the user's Jupyter folders; it adds --unstable-sloppy-imports because the cells import the
// TypeScript sources by their .js names, as NodeNext TypeScript does and as tsx resolves them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

export const KERNEL_NAME = 'prunelab-deno';

/** The tools the kernel path needs, found on PATH unless named by DENO and JUPYTER. */
export interface KernelTools {
  readonly deno: string;
  readonly jupyter: string;
}

/** An output as nbformat stores it: multi-line strings as a string or a list of lines. */
export interface KernelOutput {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, string | string[]>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

export interface KernelCell {
  cell_type: string;
  execution_count?: number | null;
  outputs?: KernelOutput[];
}

export function kernelTools(env: NodeJS.ProcessEnv): KernelTools | { missing: string; setup: string } {
  const deno = env.DENO ?? 'deno';
  const jupyter = env.JUPYTER ?? 'jupyter';
  if (spawnSync(deno, ['--version'], { encoding: 'utf8' }).status !== 0)
    return {
      missing: `deno (${deno})`,
      setup: 'npm install --prefix DIR @deno/linux-x64-glibc, then DENO=DIR/node_modules/@deno/linux-x64-glibc/deno',
    };
  if (spawnSync(jupyter, ['nbconvert', '--version'], { encoding: 'utf8' }).status !== 0)
    return { missing: `jupyter nbconvert (${jupyter})`, setup: 'apt-get install jupyter-nbconvert python3-nbclient' };
  return { deno, jupyter };
}

/**
 * Executes `path` in the Deno kernel and returns the executed cells (outputs in place, errors kept as error
 * outputs) and the first error, or null when every cell ran.
 */
export function runInKernel(path: string, tools: KernelTools): { cells: KernelCell[] | null; error: string | null } {
  const temp = mkdtempSync(join(tmpdir(), 'prunelab-kernel-'));
  try {
    const spec = join(temp, 'kernels', KERNEL_NAME);
    mkdirSync(spec, { recursive: true });
    writeFileSync(
      join(spec, 'kernel.json'),
      JSON.stringify({
        argv: [tools.deno, 'jupyter', '--unstable-sloppy-imports', '--kernel', '--conn', '{connection_file}'],
        display_name: 'Deno (prunelab)',
        language: 'typescript',
      }),
    );
    const result = spawnSync(
      tools.jupyter,
      [
        'nbconvert',
        '--to',
        'notebook',
        '--execute',
        '--allow-errors',
        `--ExecutePreprocessor.kernel_name=${KERNEL_NAME}`,
        '--ExecutePreprocessor.timeout=600',
        '--output-dir',
        temp,
        '--output',
        'executed',
        path,
      ],
      {
        cwd: dirname(path),
        encoding: 'utf8',
        env: { ...process.env, JUPYTER_PATH: temp, NO_COLOR: '1' },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (result.status !== 0) return { cells: null, error: `${basename(path)}: ${result.stderr || result.error}` };
    const cells = (JSON.parse(readFileSync(join(temp, 'executed.ipynb'), 'utf8')) as { cells: KernelCell[] }).cells;
    const failed = cells.flatMap((c) => c.outputs ?? []).find((o) => o.output_type === 'error');
    return { cells, error: failed ? `${failed.ename}: ${failed.evalue}` : null };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
