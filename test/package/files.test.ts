// The package's contents without building or installing it: npm test's fast counterpart of install.test.ts (which
// packs, installs and runs the tarball on Node 20 and 22, and runs in its own tier, npm run test:package). From the
// entry points package.json names (bin, exports), every module they reach must be a source the build emits (src/,
// experiments/), every package a module imports at run time a dependency (never a devDependency, which a consumer
// does not get), and npm's own reading of the `files` field, over a tree laid out as the build lays out dist/, must
// take the built code, its declarations, the tables beside it and the canonical fixtures, and nothing else of ours.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildGraph, importsOf } from '../architecture/graph.js';
import { HELD, NEVER_UNDER } from './contents.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
interface Manifest {
  readonly bin: Record<string, string>;
  readonly exports: Record<string, string | Record<string, string>>;
  readonly dependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
/** The trees scripts/build.ts transforms into dist/, file by file. */
const TREES = ['src', 'experiments'];

const filesOf = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
const isTypeScript = (file: string) => /\.[cm]?ts$/.test(file) && !file.endsWith('.d.ts');
const sources = TREES.flatMap(filesOf);
const tree = new Map(sources.map((f) => [f, isTypeScript(f) ? readFileSync(join(ROOT, f), 'utf8') : null]));
const graph = buildGraph(tree);

/** A dist/ path package.json names, as the source file the build makes it from. */
const sourceOf = (built: string) =>
  posix
    .normalize(built)
    .replace(/^dist\//, '')
    .replace(/\.d\.ts$|\.js$/, '.ts');
const builtOf = (source: string, ext: '.js' | '.d.ts') => `dist/${source.replace(/\.ts$/, ext)}`;
const entryFiles = [
  ...new Set(
    [
      ...Object.values(manifest.bin),
      ...Object.entries(manifest.exports)
        .filter(([key]) => key !== './package.json')
        .flatMap(([, to]) => (typeof to === 'string' ? [to] : Object.values(to))),
    ].map(sourceOf),
  ),
];

/** Every source reached from the entry points over relative imports, type-only ones included (the declarations). */
function reached(): string[] {
  const seen = new Set<string>(entryFiles);
  const queue = [...entryFiles];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const e of graph.edges)
      if (e.from === from && !seen.has(e.to)) {
        seen.add(e.to);
        queue.push(e.to);
      }
  }
  return [...seen].sort();
}

/** The package a bare specifier names: `@scope/name` or `name`, without a subpath. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe("the package's entry points and what they reach", () => {
  it('name sources that exist, and every module they reach is one the build emits', () => {
    expect(entryFiles).toContain('src/cli/bin.ts');
    expect(entryFiles).toContain('src/index.ts');
    expect(entryFiles).toContain('src/policy/public.ts');
    for (const entry of entryFiles) expect(tree.has(entry), entry).toBe(true);
    expect(graph.unresolved.filter((u) => reached().includes(u.from))).toEqual([]);
    expect(reached().length).toBeGreaterThan(entryFiles.length);
  });

  it('import at run time only Node built-ins and the dependencies a consumer installs, never a devDependency', () => {
    const builtins = new Set(builtinModules);
    const packages = new Set<string>();
    for (const file of reached().filter(isTypeScript))
      for (const site of importsOf(file, tree.get(file)!))
        if (!site.typeOnly && !site.specifier.startsWith('.') && !site.specifier.startsWith('node:'))
          packages.add(packageOf(site.specifier));
    const runtime = [...packages].filter((p) => !builtins.has(p)).sort();
    expect(runtime.length).toBeGreaterThan(0);
    expect(runtime.filter((p) => !(p in manifest.dependencies))).toEqual([]);
    expect(runtime.filter((p) => p in manifest.devDependencies)).toEqual([]);
  });
});

describe("npm's reading of package.json `files` over the built layout (npm pack --dry-run)", () => {
  let packed: string[] = [];
  const declarations = reached().map((f) => builtOf(f, '.d.ts'));
  const built = [
    ...sources.filter(isTypeScript).map((f) => builtOf(f, '.js')),
    ...declarations,
    // The tables and prompts the modules read beside themselves, copied next to them.
    ...sources.filter((f) => f.startsWith('src/') && !isTypeScript(f)).map((f) => `dist/${f}`),
  ];
  const canonical = filesOf('fixtures/canonical');
  /** Ours, but never the package's: each stands for a tree `files` must leave out. */
  const outside = [
    'dist/tsconfig.build.tsbuildinfo',
    'src/index.ts',
    'test/package/files.test.ts',
    'results/manifest.json',
    'notebooks/analysis.ipynb',
    'fixtures/generated/x.json',
    'fixtures/MANIFEST.json',
    'data/x.json',
    'examples/x.ts',
    'scripts/build.ts',
  ];

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'prunelab-files-'));
    for (const file of [...built, ...canonical, ...outside]) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), '');
    }
    writeFileSync(join(dir, 'package.json'), readFileSync(join(ROOT, 'package.json')));
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    packed = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  });

  it('takes the built code of every source, the declarations of the library, the tables and the canonical fixtures', () => {
    for (const held of HELD) expect(packed).toContain(held);
    expect(built.filter((f) => !packed.includes(f))).toEqual([]);
    expect(canonical.filter((f) => !packed.includes(f))).toEqual([]);
  });

  it('leaves out TypeScript sources, tests, results, notebooks, the generated corpus and build leftovers', () => {
    expect(outside.filter((f) => packed.includes(f))).toEqual([]);
    for (const left of NEVER_UNDER) expect(packed.filter((f) => f.startsWith(left))).toEqual([]);
    expect(packed.filter((f) => isTypeScript(f))).toEqual([]);
  });
});
