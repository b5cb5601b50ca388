// The launcher (scripts/launch.mjs) and its cache (scripts/compiled.mjs): the key follows every input byte, a build
// that is killed or raced never leaves a half copy in use nor debris behind, and a study run through the launcher is
// the study run from the sources in this process: the same files, output, messages and exit codes.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALLOCATOR, onGlibc } from '../../scripts/allocator.mjs';
import { CACHE_DIR, cacheKey, compiledTree } from '../../scripts/compiled.mjs';
import { cli } from '../support/cli.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const COMPILED = pathToFileURL(join(ROOT, 'scripts', 'compiled.mjs')).href;

/** A small tree laid out as the repository's: modules in each tree, a run-time file beside src/'s modules. */
function smallRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'prunelab-launch-'));
  const files: Record<string, string> = {
    'package.json': '{ "type": "module" }\n',
    'src/a.ts': "import { b } from './b.js';\nexport const a: number = b + 1;\n",
    'src/b.ts': 'export const b = 41;\n',
    'src/tables/t.json': '{ "rate": 0.5 }\n',
    'experiments/e.ts': "export const study = 'e';\n",
    'experiments/notes.md': 'not an input: never read by a module\n',
    'scripts/s.ts': "import { a } from '../src/a.js';\nexport const s = a;\n",
  };
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

const cacheOf = (root: string) => join(root, CACHE_DIR);
const entries = (root: string) => readdirSync(cacheOf(root)).sort();

/** The pid of a process that has exited (a killed writer's leftovers carry such a pid). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** Runs compiledTree(root) in a child process, with `transform` (a function's source) in place of esbuild's. */
function childBuild(root: string, transform?: string): ChildProcess {
  const options = transform ? `{ transform: ${transform} }` : '{}';
  const code = `import { mkdirSync, writeFileSync } from 'node:fs';
const { compiledTree } = await import(${JSON.stringify(COMPILED)});
const r = await compiledTree(${JSON.stringify(root)}, ${options});
r.release();
process.stdout.write(JSON.stringify({ dir: r.dir, built: r.built }));`;
  return spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'pipe'] });
}

function ended(child: ChildProcess): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  let stdout = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stdout })));
}

describe('the cache key', () => {
  it('changes when any input byte changes, is the same for the same bytes, and ignores files no module reads', () => {
    const root = smallRoot();
    const key = cacheKey(root);
    expect(key).toMatch(/^[0-9a-f]{24}$/);
    expect(cacheKey(root)).toBe(key);
    const edit = (file: string, text: string) => writeFileSync(join(root, file), text);
    const original = readFileSync(join(root, 'src/b.ts'), 'utf8');
    edit('src/b.ts', original.replace('41', '42'));
    const edited = cacheKey(root);
    expect(edited).not.toBe(key);
    edit('src/b.ts', original);
    expect(cacheKey(root)).toBe(key);
    // A file the modules read beside themselves is an input; one beside the study definitions is not copied.
    edit('src/tables/t.json', '{ "rate": 0.6 }\n');
    expect(cacheKey(root)).not.toBe(key);
    edit('src/tables/t.json', '{ "rate": 0.5 }\n');
    edit('experiments/notes.md', 'edited\n');
    expect(cacheKey(root)).toBe(key);
    // A module moved is another tree, whatever its bytes.
    renameSync(join(root, 'scripts/s.ts'), join(root, 'scripts/t.ts'));
    expect(cacheKey(root)).not.toBe(key);
    // So is another tsconfig.json (esbuild reads its compiler options).
    renameSync(join(root, 'scripts/t.ts'), join(root, 'scripts/s.ts'));
    edit('tsconfig.json', '{ "compilerOptions": { "useDefineForClassFields": false } }\n');
    expect(cacheKey(root)).not.toBe(key);
  });
});

describe('the compiled copy', () => {
  it('is built once per key, holds the modules and the files beside them, and replaces the copy of another key', async () => {
    const root = smallRoot();
    const first = await compiledTree(root);
    expect(first.built).toBe(true);
    const mod = (await import(pathToFileURL(join(first.dir, 'scripts/s.js')).href)) as { s: number };
    expect(mod.s).toBe(42);
    expect(readFileSync(join(first.dir, 'src/tables/t.json'), 'utf8')).toBe('{ "rate": 0.5 }\n');
    expect(existsSync(join(first.dir, 'experiments/notes.md'))).toBe(false);
    first.release();
    const again = await compiledTree(root);
    expect(again).toMatchObject({ dir: first.dir, built: false });
    again.release();
    expect(entries(root)).toEqual([first.key]);

    writeFileSync(join(root, 'src/b.ts'), 'export const b = 1;\n');
    const next = await compiledTree(root);
    expect(next.built).toBe(true);
    next.release();
    // The old copy was held by no live process: it is gone, and nothing else is left.
    expect(entries(root)).toEqual([next.key]);
  });

  it('keeps the copy a live process holds, and removes what dead processes left', async () => {
    const root = smallRoot();
    const old = await compiledTree(root);
    // A live process (this one's parent) still runs from the old copy; a dead one held it too.
    const dead = deadPid();
    writeFileSync(join(cacheOf(root), `${old.key}.lease-${process.ppid}`), '');
    writeFileSync(join(cacheOf(root), `${old.key}.lease-${dead}`), '');
    old.release();
    writeFileSync(join(root, 'src/b.ts'), 'export const b = 2;\n');
    const other = 'f'.repeat(24);
    for (const debris of [`${other}.build-${dead}`, `${other}.stale-${dead}`]) {
      mkdirSync(join(cacheOf(root), debris, 'src'), { recursive: true });
      writeFileSync(join(cacheOf(root), debris, 'src', 'a.js'), 'half');
    }
    const next = await compiledTree(root);
    next.release();
    expect(entries(root)).toEqual([old.key, `${old.key}.lease-${process.ppid}`, next.key].sort());
  });

  it('is never left half built by a killed build, and the next launch clears what it left', async () => {
    const root = smallRoot();
    const key = cacheKey(root);
    // A transform that writes part of the copy, says so, and never finishes: killed there.
    const hang = `async (_root, out) => { mkdirSync(out + '/src', { recursive: true }); writeFileSync(out + '/src/a.js', 'half'); process.stdout.write('ready'); await new Promise(() => {}); }`;
    const child = childBuild(root, hang);
    const outcome = ended(child);
    await new Promise<void>((ready) => child.stdout!.once('data', () => ready()));
    child.kill('SIGKILL');
    expect((await outcome).signal).toBe('SIGKILL');
    expect(entries(root)).toEqual([`${key}.build-${child.pid}`, `${key}.lease-${child.pid}`]);
    expect(existsSync(join(cacheOf(root), key))).toBe(false);

    const next = await compiledTree(root);
    expect(next).toMatchObject({ key, built: true });
    next.release();
    expect(entries(root)).toEqual([key]);
    expect(readFileSync(join(next.dir, 'src/a.js'), 'utf8')).toContain('b + 1');
  });

  it('is built whole once when several launches start at once', async () => {
    const root = smallRoot();
    const runs = await Promise.all([1, 2, 3, 4].map(() => ended(childBuild(root))));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    const results = runs.map((r) => JSON.parse(r.stdout) as { dir: string; built: boolean });
    const key = cacheKey(root);
    expect(new Set(results.map((r) => r.dir))).toEqual(new Set([join(cacheOf(root), key)]));
    // Each launch that found no copy built one; the first rename won and the others' copies were dropped.
    expect(results.filter((r) => r.built)).toHaveLength(1);
    expect(entries(root)).toEqual([key]);
    const mod = (await import(pathToFileURL(join(cacheOf(root), key, 'src/a.js')).href)) as { a: number };
    expect(mod.a).toBe(42);
  });
});

describe('a run through the launcher', () => {
  const run = (args: readonly string[]) =>
    spawnSync(process.execPath, ['scripts/launch.mjs', 'src/cli/bin.ts', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
  const filesOf = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();

  it('writes what the sources write: the same files, output and manifest facts, workers and LangChain included', async () => {
    const args = (out: string) => [
      'experiment',
      '--fixtures',
      'fixtures/canonical',
      '--condition',
      'raw,ladder-0-3,pkg-langchain-trim-messages',
      '--workers',
      '2',
      '--out',
      out,
    ];
    const outs = {
      sources: mkdtempSync(join(tmpdir(), 'prunelab-launch-sources-')),
      launcher: mkdtempSync(join(tmpdir(), 'prunelab-launch-launcher-')),
    };
    // The sources, in this process (as the other CLI tests run them), against the launcher's process.
    const sources = await cli(args(outs.sources), ROOT);
    const launcher = run(args(outs.launcher));
    expect(launcher.stderr).not.toMatch(/Error/);
    expect([launcher.status, sources.code]).toEqual([0, 0]);
    expect(launcher.stdout.replace(outs.launcher, 'OUT')).toBe(sources.stdout.replace(outs.sources, 'OUT'));
    const files = filesOf(outs.sources);
    expect(filesOf(outs.launcher)).toEqual(files);
    expect(files).toContain('manifest.json');
    for (const file of files) {
      const read = (dir: string) => readFileSync(join(dir, file), 'utf8');
      if (file === 'run.json') {
        // The run's volatile facts: the time differs; the commit, dirty flag and Node are the repository's.
        const facts = (dir: string) => ({ ...(JSON.parse(read(dir)) as object), startedAt: null });
        expect(facts(outs.launcher)).toEqual(facts(outs.sources));
      } else expect(read(outs.launcher), file).toBe(read(outs.sources));
    }
  });

  it('fails on bad input as the sources do: the same messages and exit codes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-launch-bad-'));
    writeFileSync(join(dir, 'broken.json'), '{ "id": ');
    const policy = join(dir, 'policy', 'policy.mjs');
    mkdirSync(dirname(policy));
    writeFileSync(
      policy,
      `import { GENERATOR } from ${JSON.stringify(join(ROOT, 'src', 'corpus', 'corpus.ts'))};\nexport default GENERATOR;\n`,
    );
    const cases = [
      ['experiment', '--condition', 'nope'],
      ['experiment', '--fixtures', join(dir, 'broken.json'), '--out', join(dir, 'out')],
      ['experiment', '--fixtures', 'fixtures/canonical', '--policy', policy, '--out', join(dir, 'out')],
    ];
    const seen: ReturnType<typeof run>[] = [];
    for (const args of cases) {
      // The sources, in this process (as test/cli/bad-inputs.test.ts runs them), against the launcher's process.
      const sources = await cli(args, ROOT);
      const launcher = run(args);
      expect({ args, status: launcher.status, stdout: launcher.stdout, stderr: launcher.stderr }).toEqual({
        args,
        status: sources.code,
        stdout: sources.stdout,
        stderr: sources.stderr,
      });
      seen.push(launcher);
    }
    expect(seen.map((r) => r.status)).toEqual([2, 2, 2]);
    expect(seen[2]!.stderr).toContain("it is prunelab's corpus generator");
  });
});

/**
 * The pids of a process's children that run the launcher (Linux: read from /proc). A run also starts git: between
 * fork and exec that child still shows its parent's command line, for a moment that a loaded machine stretches past
 * a poll, so a sighting counts only when it lasts (see `Sightings`).
 */
function childrenOf(pid: number): number[] {
  const launches = (name: string) => readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('scripts/launch.mjs');
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        // The fourth field of stat, after the command in parentheses (which may hold spaces), is the parent's pid.
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid && launches(name);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether a process still runs: gone, or a zombie no one has reaped yet, is not running. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The launcher processes seen across polls; those seen over at least LASTING ms are ones that run, not a fork. */
class Sightings {
  readonly #first = new Map<number, number>();
  readonly #last = new Map<number, number>();
  see(pids: readonly number[]): void {
    const now = Date.now();
    for (const pid of pids) {
      if (!this.#first.has(pid)) this.#first.set(pid, now);
      this.#last.set(pid, now);
    }
  }
  lasting(): number[] {
    return [...this.#first].filter(([pid, first]) => this.#last.get(pid)! - first >= LASTING).map(([pid]) => pid);
  }
}

/** Longer than any fork-to-exec, shorter than a canonical run (over a second). */
const LASTING = 250;

const settle = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Calls `each` every 20 ms until `done` settles. */
async function whileRunning(done: Promise<unknown>, each: () => void): Promise<void> {
  for (let r = await Promise.race([done, settle(0)]); r === undefined; r = await Promise.race([done, settle(20)]))
    each();
}

/** Polls until `found` returns something, for at most `ms`. */
async function poll<T>(found: () => T | undefined, ms = 10_000): Promise<T | undefined> {
  for (const start = Date.now(); Date.now() - start < ms; await settle(20)) {
    const value = found();
    if (value !== undefined) return value;
  }
  return undefined;
}

// glibc reads its malloc settings only when a process starts, so on glibc the launcher runs the command in a child
// started with them; a launcher stopped or killed leaves no run behind, and a user's own settings are kept.
describe.runIf(onGlibc())("the launcher and glibc's allocator", () => {
  const canonical = (out: string, env: NodeJS.ProcessEnv = process.env) =>
    spawn(
      process.execPath,
      [
        'scripts/launch.mjs',
        'src/cli/bin.ts',
        'experiment',
        '--fixtures',
        'fixtures/canonical',
        '--condition',
        'raw',
      ].concat(['--out', out]),
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env },
    );
  const environOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  /**
   * The launcher's child once it has started (exec'd): between fork and exec a child shows its parent's command line
   * and environment, which a loaded machine stretches long enough for a poll to read. Only the started child's
   * environment names the launcher, which sets PRUNELAB_LAUNCHER_PID for it alone.
   */
  const startedChildOf = (launcher: number) =>
    poll(() =>
      childrenOf(launcher).find((pid) => {
        try {
          return environOf(pid).includes(`PRUNELAB_LAUNCHER_PID=${launcher}`);
        } catch {
          return false;
        }
      }),
    );

  it('runs the command once, in a child started with the settings, which ends as the run ends', async () => {
    const out = mkdtempSync(join(tmpdir(), 'prunelab-launch-alloc-'));
    const launcher = canonical(join(out, 'run'));
    const done = ended(launcher);
    const child = await startedChildOf(launcher.pid!);
    expect(child).toBeDefined();
    const env = environOf(child!);
    for (const [name, value] of Object.entries(ALLOCATOR)) expect(env).toContain(`${name}=${value}`);
    // Every launcher process seen running until the run ends: the one child, which started no launcher of its own.
    const seen = new Sightings();
    await whileRunning(done, () => seen.see([launcher.pid!, child!].flatMap(childrenOf)));
    expect(seen.lasting()).toEqual([child]);
    const r = await done;
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'run', 'manifest.json'))).toBe(true);
    // Nothing of the run is left running once the launcher has returned.
    expect(running(child!)).toBe(false);
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)('leaves no run behind when the launcher gets %s', async (signal) => {
    const out = mkdtempSync(join(tmpdir(), 'prunelab-launch-kill-'));
    const launcher = canonical(join(out, 'run'));
    const done = ended(launcher);
    const child = await startedChildOf(launcher.pid!);
    expect(child).toBeDefined();
    launcher.kill(signal);
    expect((await done).signal).toBe(signal);
    // A forwarded SIGTERM stops the child at once; after a SIGKILL the child sees its launcher gone within 250 ms.
    expect(await poll(() => (running(child!) ? undefined : true), 5_000)).toBe(true);
    expect(existsSync(join(out, 'run', 'manifest.json'))).toBe(false);
  });

  it("keeps a user's own settings and runs in its own process", async () => {
    const out = mkdtempSync(join(tmpdir(), 'prunelab-launch-own-'));
    const launcher = canonical(join(out, 'run'), { ...process.env, MALLOC_ARENA_MAX: '4' });
    const done = ended(launcher);
    const seen = new Sightings();
    await whileRunning(done, () => seen.see(childrenOf(launcher.pid!)));
    expect((await done).code).toBe(0);
    expect(seen.lasting()).toEqual([]);
    expect(existsSync(join(out, 'run', 'manifest.json'))).toBe(true);
  });
});
