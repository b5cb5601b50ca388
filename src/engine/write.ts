// Writes a run's artifacts so that a failure never leaves a partial result: everything is written into a staging
// folder beside the output first, then each condition's folder is swapped in by rename, the manifest last.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Manifest, type Manifest as ManifestT } from '../artifacts/schema.js';
import { failure } from '../errors.js';
import { byCodeUnit, sha256 } from '../fixture/canonical.js';
import type { ConditionRun } from './run.js';

export type ManifestInputs = Omit<ManifestT, 'outputs' | 'conditions'>;

/** Renders one condition's files; the same runs always give the same bytes. */
export function renderCondition(run: ConditionRun): Map<string, string> {
  const dir = run.info.name;
  const lines = (rows: readonly unknown[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + (rows.length ? '\n' : '');
  return new Map([
    [`${dir}/decisions.jsonl`, lines(run.records)],
    [`${dir}/points.jsonl`, lines(run.points)],
    [`${dir}/summary.json`, `${JSON.stringify(run.summary, null, 2)}\n`],
  ]);
}

export function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw failure('PL_IO', path, (err as Error).message);
  }
}

/** The manifest a folder holds, or undefined when it has none or one this code cannot read. */
export function readManifest(dir: string): ManifestT | undefined {
  try {
    return Manifest.parse(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')));
  } catch {
    return undefined;
  }
}

/** Inputs that must match for an earlier run's condition folders to stand beside this run's. */
function sameInputs(a: ManifestT, b: ManifestInputs): boolean {
  const sig = (m: ManifestInputs) => JSON.stringify([m.package, m.tokenizer, m.seed, m.timing, m.placeholders, m.study, m.models, m.fixtures]);
  return sig(a) === sig(b);
}

/**
 * Writes the runs into outDir. Condition folders an earlier run left there stay (and stay in the manifest) only
 * when that run had the same inputs; otherwise they are removed as stale, so the manifest always describes
 * exactly what the folder holds.
 */
export function writeRun(outDir: string, runs: readonly ConditionRun[], inputs: ManifestInputs): ManifestT {
  const staging = join(outDir, `.staging-${process.pid}`);
  const previous = readManifest(outDir);
  const fresh = new Set(runs.map((r) => r.info.name));
  const carried = previous && sameInputs(previous, inputs)
    ? previous.conditions.filter((c) => !fresh.has(c.name) && existsSync(join(outDir, c.name)))
    : [];
  const stale = previous ? previous.conditions.filter((c) => !fresh.has(c.name) && !carried.includes(c)) : [];
  const files = new Map<string, string>();
  for (const run of runs) for (const [f, data] of renderCondition(run)) files.set(f, data);
  const outputs = [
    ...[...files].map(([file, data]) => ({ file, sha256: sha256(data) })),
    ...(previous?.outputs.filter((o) => carried.some((c) => o.file.startsWith(`${c.name}/`))) ?? []),
  ].sort((a, b) => byCodeUnit(a.file, b.file));
  const conditions = [
    ...carried,
    ...runs.map((r) => ({ name: r.info.name, layer: r.info.layer, rung: r.info.rung, version: r.info.version })),
  ];
  const { run, ...fixed } = inputs;
  const manifest: ManifestT = { ...fixed, conditions: byName(conditions), outputs, run };
  try {
    rmSync(staging, { recursive: true, force: true });
    for (const [file, data] of files) {
      mkdirSync(dirname(join(staging, file)), { recursive: true });
      writeFileSync(join(staging, file), data);
    }
    writeFileSync(join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    for (const run of runs) swapIn(join(staging, run.info.name), join(outDir, run.info.name));
    renameSync(join(staging, 'manifest.json'), join(outDir, 'manifest.json'));
    for (const c of stale) rmSync(join(outDir, c.name), { recursive: true, force: true });
  } catch (err) {
    throw failure('PL_IO', outDir, (err as Error).message);
  } finally {
    try {
      rmSync(staging, { recursive: true, force: true });
    } catch {
      // The error that brought us here matters more than a staging folder that could not be cleaned.
    }
  }
  return manifest;
}

function swapIn(from: string, to: string): void {
  const old = `${to}.old-${process.pid}`;
  if (existsSync(to)) renameSync(to, old);
  renameSync(from, to);
  rmSync(old, { recursive: true, force: true });
}

/** Keeps the manifest's condition list in a stable order whatever order the runs came in. */
function byName<T extends { name: string }>(conditions: T[]): T[] {
  return [...conditions].sort((a, b) => byCodeUnit(a.name, b.name));
}
