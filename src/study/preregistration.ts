// The preregistered study as data: hypotheses, conditions, metrics, acceptance criteria, analysis plan and the
// chapter's outcome table, with the hash of the fixture manifest it was frozen against. This file is its one schema;
// each study's preregistration.json (experiments/<study>/) is validated against it and preregistration.md rendered from it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { input } from '../errors.js';
import { parseJsonStrict } from '../fixture/json.js';

/**
 * Where a study's preregistration lives: in its own folder under experiments/, named by the study definition's
 * `name`. The library names no study; the CLI passes the one it loaded (src/cli/study.ts).
 */
export interface StudyFiles {
  readonly folder: string;
  readonly preregistration: string;
  readonly prose: string;
}

export function studyFiles(study: string): StudyFiles {
  const folder = `experiments/${study}`;
  return { folder, preregistration: `${folder}/preregistration.json`, prose: `${folder}/preregistration.md` };
}
/** Version 10 (the study's current design); versions 1 to 9 are kept beside it (pilot-v1/, v2/ to v9/) and still validate. */
export const PREREGISTRATION_VERSION = 21;

/**
 * The pin of the whole preregistration: one line in sha256sum's format, `<sha256>  preregistration.json`, committed
 * beside the file it pins and written only by `npm run prereg:freeze`. A preregistration whose text no longer hashes
 * to its pin has been edited since it was frozen, and a run against it is a departure.
 */
export function pinFileOf(file: string): string {
  return `${file}.sha256`;
}

/** The pin file's text for a preregistration's sha256 (`sha256sum -c` checks it from the file's folder). */
export function renderPin(file: string, hash: string): string {
  return `${hash}  ${file.split('/').pop()}\n`;
}

/** The sha256 a pin file's text names for `file`, or undefined when the text is not one such line. */
export function parsePin(text: string, file: string): string | undefined {
  const m = /^([0-9a-f]{64}) [ *](.+)\n?$/.exec(text);
  return m && m[2] === file.split('/').pop() ? m[1] : undefined;
}

const Id = z.string().regex(/^[A-Za-z][A-Za-z0-9-]*$/);
const Rung = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const PreregisteredCondition = z.strictObject({
  name: z.string().min(1),
  layer: z.enum(['control', 'A', 'B', 'comparator']),
  rung: Rung.nullable(),
  version: z.string().min(1),
  upperRisk: z.boolean(),
  parameters: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])),
  /** Why the condition is in the study. */
  role: z.string().min(1),
  /** A parameter sweep around a base condition; null for the study's primary conditions. */
  sweep: z.strictObject({ base: z.string().min(1), parameter: z.string().min(1), value: z.number() }).nullable(),
});

export const Metric = z.strictObject({
  id: Id,
  numerator: z.string().min(1),
  denominator: z.string().min(1),
  /** What is reported when the denominator is 0. */
  whenEmpty: z.string().min(1),
  pooling: z.string().min(1),
});

/** A binary outcome per prune point, the unit of the paired tests. */
export const PointOutcome = z.strictObject({ id: Id, definition: z.string().min(1) });

export const Comparison = z.strictObject({
  id: Id,
  /** The condition expected to do worse on the outcome, then its reference. */
  condition: z.string().min(1),
  reference: z.string().min(1),
  outcome: Id,
  hypothesis: Id,
  expected: z.string().min(1),
});

export const Preregistration = z.strictObject({
  preregistrationVersion: z.union([
    z.literal(1),
    z.literal(2),
    z.literal(3),
    z.literal(4),
    z.literal(5),
    z.literal(6),
    z.literal(7),
    z.literal(8),
    z.literal(9),
    z.literal(10),
    z.literal(11),
    z.literal(12),
    z.literal(13),
    z.literal(14),
    z.literal(15),
    z.literal(16),
    z.literal(17),
    z.literal(18),
    z.literal(19),
    z.literal(20),
    z.literal(PREREGISTRATION_VERSION),
  ]),
  study: Id,
  title: z.string().min(1),
  source: z.string().min(1),
  status: z.string().min(1),
  /**
   * Every change made to this file after it was first frozen, oldest first: when, why, what changed, and whether
   * results governed by the file existed at the time (an amendment made after results is not a prediction).
   */
  /**
   * Every version of this study's preregistration, oldest first: when it was frozen, whether that was before every
   * result it governs, and which results existed when it was written (a prediction made after a result is not blind).
   */
  history: z
    .array(
      z.strictObject({
        version: z.int().positive(),
        date: z.iso.date(),
        frozenBeforeResults: z.boolean(),
        note: z.string().min(1),
        resultsThatExisted: z.array(z.string().min(1)),
      }),
    )
    .default([]),
  amendments: z
    .array(
      z.strictObject({
        id: Id,
        date: z.iso.date(),
        resultsExisted: z.boolean(),
        reason: z.string().min(1),
        changes: z.array(z.string().min(1)).min(1),
      }),
    )
    .default([]),
  question: z.string().min(1),
  /** The inputs the study is frozen against: fixtures/MANIFEST.json and the sha256 of its text. */
  fixtureManifest: z.strictObject({ file: z.string().min(1), sha256: Sha256 }),
  /** The options of the preregistered run; any other value makes a run exploratory. */
  run: z.strictObject({
    fixtures: z.string().min(1),
    timing: z.string().min(1),
    placeholders: z.enum(['marker', 'none']),
    seed: z.int(),
    tokenizer: z.strictObject({ package: z.string(), encoding: z.string() }),
    models: z.string().min(1),
  }),
  unit: z.array(z.string().min(1)).min(1),
  hypotheses: z
    .array(
      z.strictObject({
        id: Id,
        claim: z.string().min(1),
        conditions: z.array(z.string().min(1)).min(1),
        metrics: z.array(Id).min(1),
        prediction: z.string().min(1),
      }),
    )
    .min(1),
  conditions: z.array(PreregisteredCondition).min(1),
  metrics: z.array(Metric).min(1),
  pointOutcomes: z.array(PointOutcome).min(1),
  acceptance: z.array(z.strictObject({ id: Id, hypothesis: Id, criterion: z.string().min(1) })).min(1),
  analysis: z.strictObject({
    /**
     * wilson (v1): per-unit intervals that treat decisions as independent. fixture-cluster bootstrap (v2): every
     * rate's interval from the percentile bootstrap over fixtures below, since a fixture's units are not independent.
     */
    intervals: z.strictObject({
      method: z.enum(['wilson', 'fixture-cluster bootstrap']),
      level: z.number().gt(0).lt(1),
      note: z.string().min(1),
    }),
    bootstrap: z.strictObject({
      method: z.literal('percentile'),
      resample: z.literal('fixture'),
      iterations: z.int().positive(),
      seed: z.int(),
      level: z.number().gt(0).lt(1),
      note: z.string().min(1),
    }),
    /**
     * exact McNemar on prune points (v1), or the exact sign-flip test on per-fixture differences (v2): the fixture is
     * the independent unit, and a comparison's outcome is then a per-fixture count (see FIXTURE_OUTCOMES).
     */
    paired: z.union([
      z.strictObject({
        test: z.literal('exact McNemar'),
        unit: z.literal('prune point'),
        sided: z.enum(['two-sided', 'one-sided']),
        note: z.string().min(1),
      }),
      z.strictObject({
        test: z.literal('exact sign-flip'),
        unit: z.literal('fixture'),
        sided: z.enum(['two-sided', 'one-sided']),
        note: z.string().min(1),
      }),
    ]),
    multiplicity: z.strictObject({
      method: z.literal('holm'),
      alpha: z.number().gt(0).lt(1),
      family: z.array(Id).min(1),
    }),
    comparisons: z.array(Comparison).min(1),
    secondary: z.array(z.string().min(1)),
    exploratory: z.array(z.string().min(1)),
    /**
     * The report's tables (by file name, e.g. `measures`, `thresholds`) the preregistration names; every other table
     * is stamped "Exploratory: not preregistered" in its first line. Absent (v1): none is named, so all are stamped.
     */
    preregisteredTables: z.array(z.string().min(1)).optional(),
  }),
  outcomes: z
    .array(z.strictObject({ id: Id, pattern: z.string().min(1), meaning: z.string().min(1), hypotheses: z.array(Id) }))
    .min(1),
  deviations: z.string().min(1),
});

export type Preregistration = z.infer<typeof Preregistration>;

/** Cross-references the schema cannot express: every name used is declared once. */
export function checkPreregistration(p: Preregistration, file: string): void {
  const fail = (where: string, field: string, problem: string): never => {
    throw input('PL_PREREG_INVALID', file, `${where}, field "${field}"`, problem);
  };
  const unique = (list: readonly { id?: string; name?: string }[], what: string): Set<string> => {
    const seen = new Set<string>();
    for (const x of list) {
      const key = x.id ?? x.name ?? '';
      if (seen.has(key)) fail(what, 'id', `"${key}" is declared twice`);
      seen.add(key);
    }
    return seen;
  };
  const conditions = unique(p.conditions, 'conditions');
  const metrics = unique(p.metrics, 'metrics');
  const hypotheses = unique(p.hypotheses, 'hypotheses');
  const outcomes = unique(p.pointOutcomes, 'pointOutcomes');
  const comparisons = unique(p.analysis.comparisons, 'analysis.comparisons');
  unique(p.acceptance, 'acceptance');
  unique(p.outcomes, 'outcomes');
  const known = (set: Set<string>, name: string, where: string, field: string, what: string) => {
    if (!set.has(name)) fail(where, field, `names ${what} "${name}", which is not declared`);
  };
  for (const h of p.hypotheses) {
    for (const c of h.conditions) known(conditions, c, `hypothesis ${h.id}`, 'conditions', 'condition');
    for (const m of h.metrics) known(metrics, m, `hypothesis ${h.id}`, 'metrics', 'metric');
  }
  for (const c of p.conditions)
    if (c.sweep) known(conditions, c.sweep.base, `condition ${c.name}`, 'sweep.base', 'condition');
  for (const a of p.acceptance) known(hypotheses, a.hypothesis, `acceptance ${a.id}`, 'hypothesis', 'hypothesis');
  for (const c of p.analysis.comparisons) {
    known(conditions, c.condition, `comparison ${c.id}`, 'condition', 'condition');
    known(conditions, c.reference, `comparison ${c.id}`, 'reference', 'condition');
    known(outcomes, c.outcome, `comparison ${c.id}`, 'outcome', 'point outcome');
    known(hypotheses, c.hypothesis, `comparison ${c.id}`, 'hypothesis', 'hypothesis');
  }
  for (const id of p.analysis.multiplicity.family)
    known(comparisons, id, 'analysis.multiplicity', 'family', 'comparison');
  for (const o of p.outcomes)
    for (const h of o.hypotheses) known(hypotheses, h, `outcome ${o.id}`, 'hypotheses', 'hypothesis');
}

/** Parses and checks a preregistration's text; errors name the file and the field. */
export function parsePreregistration(text: string, file: string): Preregistration {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw input('PL_PREREG_INVALID', file, 'the whole file', `not valid JSON (${(err as Error).message})`);
  }
  // A key given twice would be read as its last value without a word; refuse it, naming where.
  parseJsonStrict(Buffer.from(text, 'utf8'), file);
  const result = Preregistration.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
    throw input(
      'PL_PREREG_INVALID',
      file,
      `field "${path.map(String).join('.') || '(the whole file)'}"`,
      issue.message,
    );
  }
  checkPreregistration(result.data, file);
  return result.data;
}

export interface LoadedPreregistration {
  readonly file: string;
  readonly text: string;
  readonly preregistration: Preregistration;
}

export function loadPreregistration(root: string, file: string): LoadedPreregistration {
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    throw input('PL_PREREG_MISSING', file);
  }
  return { file, text, preregistration: parsePreregistration(text, file) };
}

/** The text a preregistration is written as (two-space JSON, trailing newline), so freezing changes only the pin. */
export function renderPreregistration(p: Preregistration): string {
  return `${JSON.stringify(p, null, 2)}\n`;
}
