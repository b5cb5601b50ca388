// Runs the analysis notebooks headless: each notebooks/*.ipynb (nbformat 4, TypeScript code cells) is joined into
// one .mts module, run with tsx from the notebook's own folder (as a Jupyter kernel runs a notebook), and each
// cell's printed output is written back into the notebook. `npm run notebooks -- FILE...` runs the named ones only;
// `--kernel deno` runs them in Deno's Jupyter kernel instead (notebook-kernel.ts). It exits 1 when any notebook
// fails; the failing cell carries the error.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { byCodeUnit } from '../src/fixture/canonical.js';
import { writeAtomic } from '../src/engine/write.js';
import { messages, notices } from '../src/messages.js';
import { DISPLAY_MARK } from '../notebooks/display.js';
import { kernelTools, runInKernel, type KernelCell, type KernelOutput } from './notebook-kernel.js';

const CELL_MARK = '\u001eprunelab-cell\u001e';
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

type Source = string | string[];
interface Cell {
  cell_type: string;
  source: Source;
  metadata: Record<string, unknown>;
  outputs?: unknown[];
  execution_count?: number | null;
}
interface Notebook {
  nbformat: number;
  nbformat_minor: number;
  metadata: Record<string, unknown>;
  cells: Cell[];
}

export interface NotebookRun {
  readonly file: string;
  readonly ok: boolean;
  readonly notebook: Notebook;
  readonly error: string | null;
}

const text = (s: Source) => (Array.isArray(s) ? s.join('') : s);
/** nbformat stores multi-line strings as lists of lines, each keeping its newline. */
const lines = (s: string) => s.split(/(?<=\n)/).filter((l) => l.length > 0);

function outputsOf(chunk: string): unknown[] {
  const outputs: unknown[] = [];
  let stream = '';
  const flush = () => {
    if (stream.length > 0) outputs.push({ output_type: 'stream', name: 'stdout', text: lines(stream) });
    stream = '';
  };
  for (const line of chunk.split(/(?<=\n)/)) {
    if (line.startsWith(DISPLAY_MARK)) {
      flush();
      const svg = Buffer.from(line.slice(DISPLAY_MARK.length).trim(), 'base64').toString('utf8');
      outputs.push({
        output_type: 'display_data',
        data: { 'image/svg+xml': lines(svg), 'text/plain': ['<chart>'] },
        metadata: {},
      });
    } else stream += line;
  }
  flush();
  return outputs;
}

/** Runs one notebook; the returned notebook holds the new outputs (the file is not touched). */
export function runNotebook(path: string, root: string = ROOT): NotebookRun {
  const notebook = JSON.parse(readFileSync(path, 'utf8')) as Notebook;
  if (notebook.nbformat !== 4) throw new Error(`${path}: nbformat ${notebook.nbformat}, expected 4`);
  const code = notebook.cells.map((c, i) => ({ c, i })).filter(({ c }) => c.cell_type === 'code');
  const module = code
    .map(({ c, i }) => `process.stdout.write(${JSON.stringify(`${CELL_MARK}${i}\n`)});\n${text(c.source)}\n`)
    .join('');
  const temp = join(dirname(path), `.${basename(path, '.ipynb')}.run.mts`);
  writeFileSync(temp, module);
  let result;
  try {
    // tsx is named by its resolved path: from a notebook outside the package, a bare name would not resolve.
    result = spawnSync(process.execPath, ['--import', import.meta.resolve('tsx'), temp], {
      cwd: dirname(path),
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024,
    });
  } finally {
    rmSync(temp, { force: true });
  }
  const byCell = new Map<number, string>();
  let current = -1;
  for (const part of (result.stdout ?? '').split(CELL_MARK)) {
    const m = /^(\d+)\n/.exec(part);
    if (m) {
      current = Number(m[1]);
      byCell.set(current, part.slice(m[0].length));
    } else if (current >= 0) byCell.set(current, (byCell.get(current) ?? '') + part);
  }
  const ok = result.status === 0;
  // Paths in a traceback would name this machine's folders; the notebook keeps them relative to the root.
  const stderr = (result.stderr ?? '').split(pathToFileURL(root).href).join('.').split(root).join('.');
  let count = 0;
  for (const { c, i } of code) {
    count += 1;
    c.execution_count = byCell.has(i) ? count : null;
    c.outputs = byCell.has(i) ? outputsOf(byCell.get(i)!) : [];
    if (!ok && i === current)
      c.outputs.push({ output_type: 'error', ename: 'Error', evalue: 'the cell failed', traceback: lines(stderr) });
  }
  return { file: path, ok, notebook, error: ok ? null : stderr || `exit ${String(result.status)}` };
}

/**
 * The notebook with the kernel's outputs in its code cells, stored as the headless runner stores them (lists of
 * lines, no execution timings), so the two paths write the same bytes when the cells print the same things.
 */
export function withKernelOutputs(notebook: Notebook, executed: readonly KernelCell[]): Notebook {
  const stored = (o: KernelOutput): unknown => {
    const many = (v: string | string[]) => lines(text(v));
    if (o.output_type === 'stream') return { output_type: 'stream', name: o.name, text: many(o.text ?? '') };
    if (o.output_type === 'error')
      return { output_type: 'error', ename: o.ename, evalue: o.evalue, traceback: o.traceback ?? [] };
    const data = Object.fromEntries(Object.entries(o.data ?? {}).map(([k, v]) => [k, many(v)]));
    return { output_type: o.output_type, data, metadata: {} };
  };
  return {
    ...notebook,
    cells: notebook.cells.map((c, i) =>
      c.cell_type === 'code'
        ? {
            ...c,
            execution_count: executed[i]?.execution_count ?? null,
            outputs: (executed[i]?.outputs ?? []).map(stored),
          }
        : c,
    ),
  };
}

export function notebookFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ipynb'))
    .sort(byCodeUnit)
    .map((f) => join(dir, f));
}

export function serialise(notebook: Notebook): string {
  return `${JSON.stringify(notebook, null, 1)}\n`;
}

/** `[--kernel deno] [FILE ...]`: the notebooks named (every one under notebooks/ when none is) and how to run them. */
function parseArgs(argv: readonly string[]): { files: string[]; kernel: boolean } | { bad: string } {
  const files: string[] = [];
  let kernel = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--kernel' && argv[i + 1] === 'deno') {
      kernel = true;
      i += 1;
    }
    // npm runs a script from the package root; a file is named from the folder npm was run in.
    else if (arg.endsWith('.ipynb') && !arg.startsWith('-')) files.push(resolve(process.env.INIT_CWD ?? '.', arg));
    else return { bad: arg };
  }
  return { files: files.length > 0 ? files : notebookFiles(join(ROOT, 'notebooks')), kernel };
}

function main(argv: readonly string[]): number {
  const args = parseArgs(argv);
  if ('bad' in args) {
    process.stderr.write(notices.errorLine(messages.PL_USAGE_NOTEBOOK_ARGS(args.bad), 'PL_USAGE_NOTEBOOK_ARGS'));
    return 2;
  }
  const tools = args.kernel ? kernelTools(process.env) : null;
  if (tools && 'missing' in tools) {
    const line = messages.PL_NOTEBOOK_KERNEL_MISSING(tools.missing, tools.setup);
    process.stderr.write(notices.errorLine(line, 'PL_NOTEBOOK_KERNEL_MISSING'));
    return 2;
  }
  let failed = 0;
  for (const file of args.files) {
    const name = relative(ROOT, file).split(sep).join('/');
    let error: string | null;
    if (tools) {
      const run = runInKernel(file, tools);
      if (run.cells) writeAtomic(file, serialise(withKernelOutputs(JSON.parse(readFileSync(file, 'utf8')), run.cells)));
      error = run.error;
    } else {
      const run = runNotebook(file);
      writeAtomic(file, serialise(run.notebook));
      error = run.ok ? null : (run.error ?? '');
    }
    if (error === null) process.stdout.write(notices.notebookRan(name));
    else {
      failed += 1;
      process.stderr.write(notices.errorLine(messages.PL_NOTEBOOK_FAILED(name, error), 'PL_NOTEBOOK_FAILED'));
    }
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href)
  process.exitCode = main(process.argv.slice(2));
