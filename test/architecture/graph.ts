// The import graph of a source tree, its cycles and its imports against a layer order. Our own rather than
// dependency-cruiser's: version 18 needs Node 22 and CI runs Node 20. Specifiers are read from TypeScript's own
// syntax tree, so an import inside a comment or a string is never counted and `import type` always is.
import { posix } from 'node:path';
import ts from 'typescript';

/** One import of one file: the specifier as written. */
export interface ImportSite {
  readonly specifier: string;
  /** `import type`, `export type ... from`, or a type position's `import('...')`: erased at run time, still a dependency. */
  readonly typeOnly: boolean;
}

/**
 * Every module a file names: static imports and re-exports (type-only included), `import x = require(...)`, and
 * `import('...')` with a literal string, in code or in a type position. A dynamic import of a computed string names
 * no module the graph could know, so it is left out.
 */
export function importsOf(fileName: string, source: string): ImportSite[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: ImportSite[] = [];
  const literal = (node: ts.Node | undefined): string | undefined =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined;
  const add = (specifier: string | undefined, typeOnly: boolean): void => {
    if (specifier !== undefined) found.push({ specifier, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      add(literal(node.moduleSpecifier), clause !== undefined && (clause.isTypeOnly || onlyTypeSpecifiers(clause)));
    } else if (ts.isExportDeclaration(node)) {
      add(literal(node.moduleSpecifier), node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(literal(node.moduleReference.expression), node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(literal(node.arguments[0]), false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(literal(node.argument.literal), true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function onlyTypeSpecifiers(clause: ts.ImportClause): boolean {
  const named = clause.namedBindings;
  return (
    clause.name === undefined &&
    named !== undefined &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

export interface Edge {
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

export interface Graph {
  /** Every file of the tree, sorted; sources are read from the .ts files only. */
  readonly files: readonly string[];
  /** Relative imports resolved to files of the tree, in file order then source order. */
  readonly edges: readonly Edge[];
  /** Relative specifiers that name no file of the tree (tsc would refuse them too; here they would hide an edge). */
  readonly unresolved: readonly { readonly from: string; readonly specifier: string }[];
}

/**
 * The graph of a tree given as path -> source (null for a file that is not TypeScript, such as a JSON table).
 * Paths use forward slashes. Only relative specifiers are followed: a package is outside every layer.
 * NodeNext style is resolved as tsc does it: `./x.js` names `./x.ts`.
 */
export function buildGraph(tree: ReadonlyMap<string, string | null>): Graph {
  const files = [...tree.keys()].sort();
  const edges: Edge[] = [];
  const unresolved: { from: string; specifier: string }[] = [];
  for (const from of files) {
    const source = tree.get(from);
    if (source === null || source === undefined || !/\.[cm]?tsx?$/.test(from)) continue;
    for (const site of importsOf(from, source)) {
      if (!site.specifier.startsWith('./') && !site.specifier.startsWith('../')) continue;
      const target = posix.normalize(posix.join(posix.dirname(from), site.specifier));
      const candidates = [
        target.replace(/\.js$/, '.ts'),
        target.replace(/\.mjs$/, '.mts'),
        target,
        `${target}.ts`,
        `${target}/index.ts`,
      ];
      const to = candidates.find((c) => tree.has(c));
      if (to === undefined) unresolved.push({ from, specifier: site.specifier });
      else edges.push({ from, to, typeOnly: site.typeOnly });
    }
  }
  return { files, edges, unresolved };
}

function adjacency(edges: readonly Edge[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.from) ?? [];
    if (!list.includes(e.to)) list.push(e.to);
    next.set(e.from, list);
  }
  for (const list of next.values()) list.sort();
  return next;
}

/**
 * One cycle per strongly connected component that has one (Tarjan), each as the files around it, first file again
 * at the end: the shortest way back to the component's first file in sorted order, so the report is deterministic.
 */
export function findCycles(edges: readonly Edge[]): string[][] {
  const next = adjacency(edges);
  const nodes = [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      components.push(component.sort());
    }
  };
  for (const v of nodes) if (!index.has(v)) connect(v);
  const cycles: string[][] = [];
  for (const component of components) {
    const start = component[0]!;
    const inside = new Set(component);
    if (component.length === 1 && !(next.get(start) ?? []).includes(start)) continue;
    // Breadth first from the start, inside the component, until an edge leads back to the start.
    const parent = new Map<string, string>();
    const queue = [start];
    let last: string | undefined;
    while (queue.length > 0 && last === undefined) {
      const v = queue.shift()!;
      for (const w of next.get(v) ?? []) {
        if (w === start) {
          last = v;
          break;
        }
        if (inside.has(w) && !parent.has(w)) {
          parent.set(w, v);
          queue.push(w);
        }
      }
    }
    const path = [start];
    for (let v = last!; v !== start; v = parent.get(v)!) path.splice(1, 0, v);
    cycles.push([...path, start]);
  }
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
}

/**
 * The layer order, bottom first: each entry is a top-level folder of the source root, or a top-level file without
 * its extension. A module may import its own unit and any unit below it, never one above.
 */
export type LayerOrder = readonly string[];

/** The unit a file belongs to: its top-level folder under `root`, or the file's own name for a top-level file. */
export function unitOf(file: string, root: string): string {
  // A tree beside the source root (experiments/, the study definitions) is one unit named by its top folder.
  if (posix.relative(root, file).startsWith('../')) return file.split('/')[0]!;
  const rest = posix.relative(root, file).split('/');
  return rest.length === 1 ? rest[0]!.replace(/\.[^.]+$/, '') : rest[0]!;
}

export interface LayerViolation extends Edge {
  readonly fromUnit: string;
  readonly toUnit: string;
}

/** Imports from a unit to a unit above it in the order. Units missing from the order are `unplaced`'s to report. */
export function upwardImports(edges: readonly Edge[], layers: LayerOrder, root: string): LayerViolation[] {
  const rank = new Map(layers.map((unit, i) => [unit, i]));
  return edges.flatMap((e) => {
    const fromUnit = unitOf(e.from, root);
    const toUnit = unitOf(e.to, root);
    const a = rank.get(fromUnit);
    const b = rank.get(toUnit);
    return a !== undefined && b !== undefined && b > a ? [{ ...e, fromUnit, toUnit }] : [];
  });
}

/** Units of the tree that the order does not place, sorted: each must be given a layer before it can be checked. */
export function unplaced(files: readonly string[], layers: LayerOrder, root: string): string[] {
  const placed = new Set(layers);
  return [...new Set(files.map((f) => unitOf(f, root)))].filter((u) => !placed.has(u)).sort();
}

export function describeCycle(cycle: readonly string[]): string {
  return `import cycle: ${cycle.join(' -> ')}`;
}

export function describeViolation(v: LayerViolation): string {
  return `${v.from} imports ${v.to}: ${v.fromUnit} may not import ${v.toUnit}, which is above it in the layer order`;
}
