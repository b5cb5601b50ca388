// The report's analysis plan is the preregistration: the comparisons and their outcomes, the Holm family and alpha,
// the bootstrap's seed, iterations and level, the acceptance criteria and the outcome table. This module loads it
// (through the zod schema), checks that the results were run against that very file, and that the report knows how
// to carry out each part of it, so nothing is tested on a guess. Errors name the file and the field.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from '../artifacts/schema.js';
import { input } from '../errors.js';
import { sha256 } from '../fixture/canonical.js';
import { parsePreregistration, studyFiles, type Preregistration } from '../study/preregistration.js';
import { FIXTURE_OUTCOMES, POINT_OUTCOMES, type SecondaryComparison } from './comparisons.js';
import { wordingPin, type Check, type CriterionForm, type OutcomeForm } from './criteria.js';
import type { StudyDefinition } from './study.js';
import { Z95 } from './stats.js';

export interface AnalysisPlan {
  /** The preregistration's path relative to the package root, and the sha256 of its text. */
  readonly file: string;
  readonly sha256: string;
  readonly preregistration: Preregistration;
  readonly criteria: readonly CriterionForm[];
  readonly outcomes: readonly OutcomeForm[];
  /** The study's descriptive comparisons, outside the Holm family. */
  readonly secondary: readonly SecondaryComparison[];
  /** The condition the study proposes, or null. */
  readonly proposed: string | null;
}

/**
 * The plan for a results folder: the preregistration its manifest names (which must still hash as it did when the
 * study ran), or for exploratory results the study's preregistration, read from under `root`.
 */
export function loadAnalysisPlan(
  root: string,
  manifest: Manifest,
  resultsLabel: string,
  study: StudyDefinition,
): AnalysisPlan {
  const pinned = manifest.study.preregistration;
  const file = pinned?.file ?? studyFiles(study.name).preregistration;
  const path = join(root, file);
  if (!existsSync(path)) throw input('PL_REPORT_PREREG_MISSING', file, resultsLabel);
  const text = readFileSync(path, 'utf8');
  const actual = sha256(text);
  if (pinned && pinned.sha256 !== actual)
    throw input('PL_REPORT_PREREG_CHANGED', file, resultsLabel, pinned.sha256, actual);
  return planOf(parsePreregistration(text, file), file, actual, study);
}

/** Checks a parsed preregistration against what the report can carry out, with the study's machine forms. */
export function planOf(p: Preregistration, file: string, hash: string, study: StudyDefinition): AnalysisPlan {
  const { criteria, outcomes } = study;
  const fail = (field: string, problem: string): never => {
    throw input('PL_REPORT_PREREG_UNSUPPORTED', file, field, problem);
  };
  const a = p.analysis;
  if (a.intervals.level !== 0.95)
    fail('analysis.intervals.level', `the report computes 95% intervals (Wilson z = ${Z95}), not ${a.intervals.level}`);
  if (a.intervals.method === 'fixture-cluster bootstrap' && a.bootstrap.level !== a.intervals.level) {
    fail(
      'analysis.bootstrap.level',
      `the intervals are the fixture-cluster bootstrap's, at ${a.intervals.level}, but the bootstrap is at ${a.bootstrap.level}`,
    );
  }
  if (a.paired.sided !== 'two-sided')
    fail('analysis.paired.sided', `the report runs the two-sided ${a.paired.test} test only`);
  const byFixture = a.paired.unit === 'fixture';
  const known = byFixture ? FIXTURE_OUTCOMES : POINT_OUTCOMES;
  p.pointOutcomes.forEach((o, i) => {
    if (!known.has(o.id))
      fail(
        `pointOutcomes.${i}.id`,
        `the report has no per-${byFixture ? 'fixture count' : 'prune-point measure'} for "${o.id}" (known: ${[...known.keys()].join(', ')})`,
      );
  });
  const conditions = new Set(p.conditions.map((c) => c.name));
  const comparisons = new Set(a.comparisons.map((c) => c.id));
  const named = (c: Check): string[] =>
    c.kind === 'holm-significant'
      ? []
      : c.kind === 'any-of'
        ? c.checks.flatMap(named)
        : 'reference' in c
          ? [c.condition, c.reference]
          : [c.condition];
  p.acceptance.forEach((crit, i) => {
    const form = criteria.find((f) => f.id === crit.id);
    if (!form)
      fail(`acceptance.${i}`, `the report has no machine form of criterion ${crit.id}, so it cannot evaluate it`);
    else if (form.wording !== wordingPin(crit.criterion)) {
      fail(
        `acceptance.${i}.criterion`,
        `the wording of ${crit.id} is not the one its machine form restates (pin ${form.wording}, wording ${wordingPin(crit.criterion)}); update the study's machine forms (experiments/)`,
      );
    }
  });
  for (const form of criteria) {
    if (!p.acceptance.some((x) => x.id === form.id))
      fail('acceptance', `has no criterion ${form.id}, which the report's machine forms evaluate`);
    for (const part of form.parts) {
      for (const c of part.checks) {
        for (const name of named(c))
          if (!conditions.has(name))
            fail('conditions', `declares no condition "${name}", which criterion ${form.id} is judged on`);
        if (c.kind === 'holm-significant' && !a.multiplicity.family.includes(c.comparison)) {
          fail(
            'analysis.multiplicity.family',
            `does not hold ${c.comparison}, which criterion ${form.id} needs Holm-corrected`,
          );
        }
        if (c.kind === 'holm-significant' && !comparisons.has(c.comparison))
          fail('analysis.comparisons', `declares no ${c.comparison}`);
      }
    }
  }
  p.outcomes.forEach((o, i) => {
    const form = outcomes.find((f) => f.id === o.id);
    if (!form) fail(`outcomes.${i}`, `the report has no machine form of outcome row ${o.id}`);
    else if (form.wording !== wordingPin(o.pattern))
      fail(
        `outcomes.${i}.pattern`,
        `the pattern of ${o.id} is not the one its machine form restates; update the study's machine forms (experiments/)`,
      );
  });
  return {
    file,
    sha256: hash,
    preregistration: p,
    criteria,
    outcomes,
    secondary: study.secondary,
    proposed: study.proposed,
  };
}
