// src/ has no import cycle and no import against the layer order (layers.ts); the checker itself is tested first on
// small synthetic trees, so that a clean result on src/ means something.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildGraph,
  describeCycle,
  describeViolation,
  findCycles,
  importsOf,
  unitOf,
  unplaced,
  upwardImports,
  type Edge,
} from './graph.js';
import { LAYERS, SOURCE_ROOT } from './layers.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function readTree(dir: string): Map<string, string | null> {
  const tree = new Map<string, string | null>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else
        tree.set(relative(ROOT, full).split(sep).join('/'), full.endsWith('.ts') ? readFileSync(full, 'utf8') : null);
    }
  };
  walk(dir);
  return tree;
}

const edge = (from: string, to: string): Edge => ({ from, to, typeOnly: false });

describe('reading the imports of a file', () => {
  it('finds static imports, type-only imports, re-exports and literal dynamic imports', () => {
    const source = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "import { type C } from './c.js';",
      "import './side-effect.js';",
      "export { d } from './d.js';",
      "export type { E } from './e.js';",
      "export * from './f.js';",
      "const g = await import('./g.js');",
      "type H = import('./h.js').H;",
      "import pkg from 'zod';",
    ].join('\n');
    expect(importsOf('x.ts', source)).toEqual([
      { specifier: './a.js', typeOnly: false },
      { specifier: './b.js', typeOnly: true },
      { specifier: './c.js', typeOnly: true },
      { specifier: './side-effect.js', typeOnly: false },
      { specifier: './d.js', typeOnly: false },
      { specifier: './e.js', typeOnly: true },
      { specifier: './f.js', typeOnly: false },
      { specifier: './g.js', typeOnly: false },
      { specifier: './h.js', typeOnly: true },
      { specifier: 'zod', typeOnly: false },
    ]);
  });

  it('ignores what only looks like an import: comments, strings, computed dynamic imports', () => {
    const source = [
      "// import { a } from './a.js';",
      "/* export * from './b.js'; */",
      'const text = "import { c } from \'./c.js\'";',
      'const d = await import(pathOf(name));',
      "const e = `import('./e.js')`;",
    ].join('\n');
    expect(importsOf('x.ts', source)).toEqual([]);
  });
});

describe('building the graph', () => {
  it('resolves NodeNext specifiers to the .ts file, across folders, and reports what names no file', () => {
    const graph = buildGraph(
      new Map([
        [
          'src/a/x.ts',
          "import { y } from '../b/y.js';\nimport { z } from './z.js';\nimport p from './table.json';\nimport 'node:fs';",
        ],
        ['src/b/y.ts', 'export const y = 1;'],
        ['src/a/table.json', null],
      ]),
    );
    expect(graph.edges).toEqual([edge('src/a/x.ts', 'src/b/y.ts'), edge('src/a/x.ts', 'src/a/table.json')]);
    expect(graph.unresolved).toEqual([{ from: 'src/a/x.ts', specifier: './z.js' }]);
  });
});

describe('finding cycles', () => {
  it('passes a graph without cycles', () => {
    expect(findCycles([edge('a', 'b'), edge('b', 'c'), edge('a', 'c')])).toEqual([]);
  });

  it('names the files of each cycle, one per strongly connected set, back to where it started', () => {
    const cycles = findCycles([
      edge('src/fixture/load.ts', 'src/oracle/load.ts'),
      edge('src/oracle/load.ts', 'src/fixture/load.ts'),
      edge('src/p/a.ts', 'src/p/b.ts'),
      edge('src/p/b.ts', 'src/p/c.ts'),
      edge('src/p/c.ts', 'src/p/a.ts'),
      edge('src/p/c.ts', 'src/q.ts'),
      edge('src/self.ts', 'src/self.ts'),
    ]);
    expect(cycles).toEqual([
      ['src/fixture/load.ts', 'src/oracle/load.ts', 'src/fixture/load.ts'],
      ['src/p/a.ts', 'src/p/b.ts', 'src/p/c.ts', 'src/p/a.ts'],
      ['src/self.ts', 'src/self.ts'],
    ]);
    expect(describeCycle(cycles[0]!)).toBe(
      'import cycle: src/fixture/load.ts -> src/oracle/load.ts -> src/fixture/load.ts',
    );
  });

  it('finds no cycle in any graph whose edges all point down an order, and one through any edge added back up a path', () => {
    const dag = fc.integer({ min: 2, max: 12 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        down: fc.array(fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 0, max: n - 1 })), {
          maxLength: 40,
        }),
      }),
    );
    fc.assert(
      fc.property(dag, ({ n, down }) => {
        const name = (i: number): string => `m${String(i).padStart(2, '0')}`;
        const edges = down.filter(([a, b]) => a > b).map(([a, b]) => edge(name(a), name(b)));
        expect(findCycles(edges)).toEqual([]);
        // A chain from the top to the bottom plus one edge back up makes every module one strongly connected set: one
        // cycle is reported, it is made of real edges, and it must use the one edge that points up.
        const chain = Array.from({ length: n - 1 }, (_, i) => edge(name(n - 1 - i), name(n - 2 - i)));
        const all = [...edges, ...chain, edge(name(0), name(n - 1))];
        const cycles = findCycles(all);
        expect(cycles).toHaveLength(1);
        const cycle = cycles[0]!;
        expect(cycle.slice(0, 2)).toEqual([name(0), name(n - 1)]);
        expect(cycle.at(-1)).toBe(name(0));
        const present = new Set(all.map((e) => `${e.from}>${e.to}`));
        for (let i = 0; i + 1 < cycle.length; i += 1) expect(present.has(`${cycle[i]}>${cycle[i + 1]}`)).toBe(true);
      }),
    );
  });
});

describe('checking the layer order', () => {
  const layers = ['errors', 'fixture', 'policy', 'cli'];

  it('places top-level folders and top-level files', () => {
    expect(unitOf('src/fixture/schema.ts', 'src')).toBe('fixture');
    expect(unitOf('src/policy/mechanisms/exact.ts', 'src')).toBe('policy');
    expect(unitOf('src/errors.ts', 'src')).toBe('errors');
  });

  it('accepts imports down the order and within a folder', () => {
    const edges = [
      edge('src/policy/a.ts', 'src/fixture/view.ts'),
      edge('src/cli/main.ts', 'src/errors.ts'),
      edge('src/policy/a.ts', 'src/policy/b.ts'),
      edge('src/cli/main.ts', 'src/policy/a.ts'),
    ];
    expect(upwardImports(edges, layers, 'src')).toEqual([]);
  });

  it('refuses an import up the order, naming both files and both folders', () => {
    const up = upwardImports(
      [edge('src/fixture/view.ts', 'src/policy/a.ts'), edge('src/errors.ts', 'src/cli/main.ts')],
      layers,
      'src',
    );
    expect(up.map(describeViolation)).toEqual([
      'src/fixture/view.ts imports src/policy/a.ts: fixture may not import policy, which is above it in the layer order',
      'src/errors.ts imports src/cli/main.ts: errors may not import cli, which is above it in the layer order',
    ]);
  });

  it('reports a folder the order does not place', () => {
    expect(unplaced(['src/fixture/a.ts', 'src/sandbox/b.ts', 'src/extra.ts'], layers, 'src')).toEqual([
      'extra',
      'sandbox',
    ]);
  });
});

describe('src/', () => {
  // experiments/ holds the study definitions that src/cli/study.ts loads: read with src/ so its imports are checked too.
  const graph = buildGraph(new Map([...readTree(join(ROOT, SOURCE_ROOT)), ...readTree(join(ROOT, 'experiments'))]));

  it('is read whole: every relative import resolves to a file of src/', () => {
    expect(graph.files.length).toBeGreaterThan(100);
    expect(graph.edges.length).toBeGreaterThan(300);
    expect(graph.unresolved).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycles(graph.edges).map(describeCycle)).toEqual([]);
  });

  it('places every top-level folder in the layer order, each once', () => {
    expect(unplaced(graph.files, LAYERS, SOURCE_ROOT)).toEqual([]);
    expect(new Set(LAYERS).size).toBe(LAYERS.length);
  });

  it('has no import against the layer order', () => {
    expect(upwardImports(graph.edges, LAYERS, SOURCE_ROOT).map(describeViolation)).toEqual([]);
  });
});
