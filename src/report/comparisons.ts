// How the report compares. The preregistered comparisons (their conditions, outcome, hypothesis and the Holm
// family) are read from the preregistration, and the secondary comparisons (descriptive, outside the Holm family,
// unadjusted p-values) from the study definition; this file holds only how each outcome is measured, on a
// points.csv row (per prune point) or on a fixture's figures (per fixture).
import type { FixtureMeasures } from '../artifacts/schema.js';
import type { ScoredPoint } from './load.js';

/**
 * How each preregistered point outcome (preregistration `pointOutcomes[].id`) is read from a prune point's row. A
 * preregistration naming an outcome not here is refused by the report, rather than tested on a guess.
 */
export const POINT_OUTCOMES: ReadonlyMap<string, (point: ScoredPoint) => boolean> = new Map([
  ['anyFalsePrune', (p: ScoredPoint) => p.falsePrunes > 0],
  ['anyObligationLost', (p: ScoredPoint) => p.obligationsPreserved < p.obligationsTotal],
  ['anyAbstain', (p: ScoredPoint) => p.abstain > 0],
  ['anyHarm', (p: ScoredPoint) => p.necessaryRemoved > 0],
]);

/** A fixture's figures under one condition: its summary entry and its prune points. */
export interface FixtureUnit {
  readonly measures: FixtureMeasures;
  readonly points: readonly ScoredPoint[];
}

/**
 * How each outcome is counted per fixture when comparisons pair fixtures (the v2 sign-flip test): an integer per
 * fixture, whose candidate-minus-reference difference is the paired statistic. A point outcome counts the fixture's
 * prune points that have it; harmRate and obligationsLost count units and obligations once per fixture, and their
 * denominators are the same under both conditions, so a difference of counts is a difference of rates.
 */
export const FIXTURE_OUTCOMES: ReadonlyMap<string, (f: FixtureUnit) => number> = new Map([
  ...[...POINT_OUTCOMES].map(([id, has]) => [id, (f: FixtureUnit) => f.points.filter(has).length] as const),
  ['harmRate', (f: FixtureUnit) => f.measures.harm?.necessaryRemoved ?? 0],
  ['obligationsLost', (f: FixtureUnit) => f.measures.obligationsLost.lost],
  ['falsePrunes', (f: FixtureUnit) => f.measures.falsePruneRate.numerator ?? 0],
]);

/** A secondary comparison: `candidate` is the condition under test, `reference` what it is compared with. */
export interface SecondaryComparison {
  readonly id: string;
  readonly candidate: string;
  readonly reference: string;
  readonly question: string;
}

/** The point outcomes each secondary comparison is tested on when prune points are paired (exact McNemar, unadjusted). */
export const SECONDARY_OUTCOMES = ['anyFalsePrune', 'anyObligationLost'] as const;
/** The per-fixture outcomes each secondary comparison is tested on when fixtures are paired (exact sign-flip, unadjusted). */
export const SECONDARY_FIXTURE_OUTCOMES = ['harmRate', 'obligationsLost'] as const;
