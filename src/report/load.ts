// Reads a results folder for the report: the manifest, and each condition's summary.json and points.jsonl, every
// one validated against the artifact schemas. Decision logs are never needed (they may be compressed or absent).
// Errors name the file, the line or entry, and the field; the report downstream trusts what this returns.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { Manifest, PointMeasures, Summary } from '../artifacts/schema.js';
import { input } from '../errors.js';
import { byCodeUnit } from '../fixture/canonical.js';
import { conditionNames } from '../policy/registry.js';

export interface ConditionResults {
  readonly summary: Summary;
  /** Per prune point, in the order the run wrote them (fixture, then prune point). */
  readonly points: readonly PointMeasures[];
}

export interface StudyResults {
  /** The folder as the user named it, for messages and captions. */
  readonly label: string;
  readonly manifest: Manifest;
  /** In the registry's order; conditions the registry does not know (a --policy run) follow by name. */
  readonly conditions: readonly ConditionResults[];
  /** Fixture id to the families it instantiates, from the manifest. */
  readonly families: ReadonlyMap<string, readonly string[]>;
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, file: string, where: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw input('PL_RESULTS_FIELD', file, where, issue.path.join('.') || '(root)', issue.message);
}

function readJson(path: string, file: string, where: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (err) {
    throw input('PL_RESULTS_FIELD', file, where, '(root)', `not readable JSON (${(err as Error).message})`);
  }
}

/** Orders condition names as the registry does, unknown names after them by code unit. */
export function registryOrder(names: readonly string[]): string[] {
  const known = conditionNames();
  const rank = (n: string) => {
    const i = known.indexOf(n);
    return i < 0 ? known.length : i;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || byCodeUnit(a, b));
}

export function loadResults(dir: string, label: string = dir): StudyResults {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) throw input('PL_RESULTS_MISSING', label);
  const manifestFile = `${label}/manifest.json`;
  const manifest = parseWith(Manifest, readJson(manifestPath, manifestFile, 'manifest'), manifestFile, 'manifest');
  const fixtureIds = new Set(manifest.fixtures.map((f) => f.id));
  const conditions = registryOrder(manifest.conditions.map((c) => c.name)).map((name) => {
    const summaryFile = `${label}/${name}/summary.json`;
    const summary = parseWith(Summary, readJson(join(dir, name, 'summary.json'), summaryFile, 'summary'), summaryFile, 'summary');
    if (summary.condition !== name) throw input('PL_RESULTS_INCONSISTENT', summaryFile, `names condition "${summary.condition}", expected "${name}"`);
    for (const [i, f] of summary.perFixture.entries()) {
      if (!fixtureIds.has(f.fixture)) throw input('PL_RESULTS_FIELD', summaryFile, `perFixture[${i}]`, 'fixture', `"${f.fixture}" is not in the manifest`);
    }
    const pointsFile = `${label}/${name}/points.jsonl`;
    let text: string;
    try {
      text = readFileSync(join(dir, name, 'points.jsonl'), 'utf8');
    } catch {
      throw input('PL_RESULTS_INCONSISTENT', pointsFile, 'missing (every condition needs its per-prune-point measures)');
    }
    const points = text.split('\n').filter((line) => line.length > 0).map((line, i) => {
      let value: unknown;
      try {
        value = JSON.parse(line) as unknown;
      } catch (err) {
        throw input('PL_RESULTS_FIELD', pointsFile, `line ${i + 1}`, '(root)', `not valid JSON (${(err as Error).message})`);
      }
      const point = parseWith(PointMeasures, value, pointsFile, `line ${i + 1}`);
      if (point.condition !== name) throw input('PL_RESULTS_FIELD', pointsFile, `line ${i + 1}`, 'condition', `"${point.condition}", expected "${name}"`);
      if (!fixtureIds.has(point.fixture)) throw input('PL_RESULTS_FIELD', pointsFile, `line ${i + 1}`, 'fixture', `"${point.fixture}" is not in the manifest`);
      return point;
    });
    if (points.length !== summary.prunePoints) {
      throw input('PL_RESULTS_INCONSISTENT', pointsFile, `${points.length} prune points, but summary.json counts ${summary.prunePoints}`);
    }
    return { summary, points };
  });
  const families = new Map(manifest.fixtures.map((f) => [f.id, [...f.families].sort(byCodeUnit)] as const));
  return { label, manifest, conditions, families };
}
