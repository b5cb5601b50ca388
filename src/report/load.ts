// Reads a results folder for the report: the manifest, and each condition's summary.json and points.csv (committed
// for every fixture), every one first checked against the manifest's sha256 (../artifacts/verify.ts) and then
// validated against the artifact schemas. Decision logs and points.jsonl are never
// needed: for the generated corpus they are compressed and git-ignored.
// Errors name the file, the line or entry, and the field; the report downstream trusts what this returns.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { csvCells } from '../artifacts/csv.js';
import { Manifest, POINT_ROW_COLUMNS, PointRow, RunRecord, Summary, type RunBlock } from '../artifacts/schema.js';
import { verifyResultsFolder } from '../artifacts/verify.js';
import { parseJsonStrict } from '../fixture/json.js';
import { RUN_FILE } from '../engine/write.js';
import { input } from '../errors.js';
import { byCodeUnit, sha256 } from '../fixture/canonical.js';
import { conditionNames } from '../policy/registry.js';

export interface ConditionResults {
  readonly summary: Summary;
  /** Per prune point, in the order the run wrote them (fixture, then prune point); all scored against an oracle. */
  readonly points: readonly ScoredPoint[];
}

/** A points.csv row of a scored fixture: the oracle counts are present. */
export type ScoredPoint = PointRow & {
  truePrunes: number;
  falsePrunes: number;
  coverageDenominator: number;
  necessaryItems: number;
  necessaryRemoved: number;
};

const TEXT_COLUMNS: ReadonlySet<string> = new Set(['fixture', 'prunePoint']);

/** A cell as the schema expects it: text columns as written, the stamp as a boolean, counts as integers, empty as null. */
function cellValue(column: string, cell: string): unknown {
  if (TEXT_COLUMNS.has(column)) return cell;
  if (column === 'exploratory') return cell === 'true' ? true : cell === 'false' ? false : cell;
  if (cell === '') return null;
  return /^\d+$/.test(cell) ? Number(cell) : cell;
}

export interface StudyResults {
  /** The folder as the user named it, for messages and captions. */
  readonly label: string;
  readonly manifest: Manifest;
  /** sha256 of manifest.json's bytes as read, for provenance. */
  readonly manifestSha256: string;
  /**
   * When, from which commit and on which Node the run was made: run.json when it names this manifest, else the
   * block a manifest written before run.json carried, else null (run.json is git-ignored: a fresh clone has none).
   */
  readonly run: RunBlock | null;
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

/** A JSON file's bytes and parsed value. */
function readJson(path: string, file: string, where: string): { bytes: Buffer; value: unknown } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw input('PL_RESULTS_FIELD', file, where, '(root)', `not readable (${(err as Error).message})`);
  }
  return parseJson(bytes, file, where);
}

function parseJson(bytes: Buffer, file: string, where: string): { bytes: Buffer; value: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    throw input('PL_RESULTS_FIELD', file, where, '(root)', `not readable JSON (${(err as Error).message})`);
  }
  // Valid JSON that would be read wrongly (a key twice, invalid UTF-8 replaced) is refused too, naming where.
  parseJsonStrict(bytes, file);
  return { bytes, value };
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
  const manifestJson = readJson(manifestPath, manifestFile, 'manifest');
  const manifest = parseWith(Manifest, manifestJson.value, manifestFile, 'manifest');
  // Nothing a hand edit or a half-finished swap changed is read: every pinned file must hash as its pin says.
  const verified = verifyResultsFolder(dir, label, manifest);
  if (verified.problems.length > 0) throw input('PL_RESULTS_UNVERIFIED', label, verified.problems);
  const pinnedBytes = (name: string, file: string): Buffer => verified.files.get(`${name}/${file}`)!;
  const fixtureIds = new Set(manifest.fixtures.map((f) => f.id));
  const conditions = registryOrder(manifest.conditions.map((c) => c.name)).map((name) => {
    const summaryFile = `${label}/${name}/summary.json`;
    const summary = parseWith(
      Summary,
      parseJson(pinnedBytes(name, 'summary.json'), summaryFile, 'summary').value,
      summaryFile,
      'summary',
    );
    if (summary.condition !== name)
      throw input('PL_RESULTS_INCONSISTENT', summaryFile, `names condition "${summary.condition}", expected "${name}"`);
    for (const [i, f] of summary.perFixture.entries()) {
      if (!fixtureIds.has(f.fixture))
        throw input(
          'PL_RESULTS_FIELD',
          summaryFile,
          `perFixture[${i}]`,
          'fixture',
          `"${f.fixture}" is not in the manifest`,
        );
    }
    if (summary.precision.numerator === null) throw input('PL_RESULTS_UNSCORED', summaryFile);
    const pointsFile = `${label}/${name}/points.csv`;
    const text = pinnedBytes(name, 'points.csv').toString('utf8');
    const [header, ...lines] = text.split('\n').filter((line) => line.length > 0);
    if (header !== POINT_ROW_COLUMNS.join(','))
      throw input('PL_RESULTS_FIELD', pointsFile, 'line 1', '(header)', `expected ${POINT_ROW_COLUMNS.join(',')}`);
    const points = lines.map((line, i) => {
      const where = `line ${i + 2}`;
      const cells = csvCells(line);
      if (cells.length !== POINT_ROW_COLUMNS.length)
        throw input(
          'PL_RESULTS_FIELD',
          pointsFile,
          where,
          '(row)',
          `${cells.length} cells, expected ${POINT_ROW_COLUMNS.length}`,
        );
      const point = parseWith(
        PointRow,
        Object.fromEntries(POINT_ROW_COLUMNS.map((c, j) => [c, cellValue(c, cells[j]!)])),
        pointsFile,
        where,
      );
      if (
        point.truePrunes === null ||
        point.falsePrunes === null ||
        point.coverageDenominator === null ||
        point.necessaryItems === null ||
        point.necessaryRemoved === null
      ) {
        throw input('PL_RESULTS_UNSCORED', pointsFile);
      }
      if (!fixtureIds.has(point.fixture))
        throw input('PL_RESULTS_FIELD', pointsFile, where, 'fixture', `"${point.fixture}" is not in the manifest`);
      return {
        ...point,
        truePrunes: point.truePrunes,
        falsePrunes: point.falsePrunes,
        coverageDenominator: point.coverageDenominator,
        necessaryItems: point.necessaryItems,
        necessaryRemoved: point.necessaryRemoved,
      };
    });
    if (points.length !== summary.prunePoints) {
      throw input(
        'PL_RESULTS_INCONSISTENT',
        pointsFile,
        `${points.length} prune points, but summary.json counts ${summary.prunePoints}`,
      );
    }
    return { summary, points };
  });
  // Structural and model-read behaviour must never share a column: a results folder holds one reader's figures.
  const readers = [...new Set(conditions.map((c) => c.summary.behaviour.reader))].sort(byCodeUnit);
  if (readers.length > 1) {
    throw input(
      'PL_RESULTS_MIXED_READERS',
      label,
      conditions.map((c) => `${c.summary.condition}: ${c.summary.behaviour.reader}`),
    );
  }
  const families = new Map(manifest.fixtures.map((f) => [f.id, [...f.families].sort(byCodeUnit)] as const));
  const manifestSha256 = sha256(manifestJson.bytes);
  return { label, manifest, manifestSha256, run: runOf(dir, manifest, manifestSha256), conditions, families };
}

/** The run record that belongs to this manifest; one that names another manifest (or does not parse) is ignored. */
function runOf(dir: string, manifest: Manifest, manifestSha256: string): RunBlock | null {
  try {
    const { manifestSha256: names, ...run } = RunRecord.parse(JSON.parse(readFileSync(join(dir, RUN_FILE), 'utf8')));
    if (names === manifestSha256) return run;
  } catch {
    // Absent or unreadable: the run's facts are unknown, which provenance says.
  }
  return manifest.run ?? null;
}
