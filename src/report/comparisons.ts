// What the report compares. The preregistered comparisons (their conditions, outcome, hypothesis and the Holm
// family) are read from the preregistration, never listed here; this file holds only how each preregistered
// per-prune-point outcome is measured on a points.csv row, and the report's secondary comparisons, which are
// descriptive, outside the Holm family and printed with unadjusted p-values.
import type { ScoredPoint } from './load.js';

/**
 * How each preregistered point outcome (preregistration `pointOutcomes[].id`) is read from a prune point's row. A
 * preregistration naming an outcome not here is refused by the report, rather than tested on a guess.
 */
export const POINT_OUTCOMES: ReadonlyMap<string, (point: ScoredPoint) => boolean> = new Map([
  ['anyFalsePrune', (p: ScoredPoint) => p.falsePrunes > 0],
  ['anyObligationLost', (p: ScoredPoint) => p.obligationsPreserved < p.obligationsTotal],
  ['anyAbstain', (p: ScoredPoint) => p.abstain > 0],
]);

/** A secondary comparison: `candidate` is the condition under test, `reference` what it is compared with. */
export interface SecondaryComparison {
  readonly id: string;
  readonly candidate: string;
  readonly reference: string;
  readonly question: string;
}

const LAYER_A = ['exact-redundancy', 'source-identity', 'errored-input-residue', 'checked-supersession', 'verified-completion', 'predictive-semantic'];
const LADDER = ['ladder-0', 'ladder-0-1', 'ladder-0-2', 'ladder-0-3', 'ladder-0-4'];
const COMPARATORS = ['same-tool-args-dedup', 'observation-masking', 'oldest-first', 'regenerability-guard'];
/** The conservative policy the book proposes; prediction and the published comparators are measured against it. */
export const PROPOSED = 'ladder-0-3';

/** Descriptive pairings (each mechanism against raw, each ladder step, each comparator against the proposal). */
export const SECONDARY_COMPARISONS: readonly SecondaryComparison[] = [
  ...LAYER_A.map((c) => ({ id: `${c}-vs-raw`, candidate: c, reference: 'raw', question: `what ${c} alone changes against keeping everything` })),
  ...LADDER.slice(1).map((c, i) => ({
    id: `${c}-vs-${LADDER[i]!}`, candidate: c, reference: LADDER[i]!, question: `the marginal effect of the rung ${c} adds to ${LADDER[i]!}`,
  })),
  { id: `predictive-semantic-vs-${PROPOSED}`, candidate: 'predictive-semantic', reference: PROPOSED, question: 'prediction alone against the conservative ladder' },
  ...COMPARATORS.map((c) => ({ id: `${c}-vs-${PROPOSED}`, candidate: c, reference: PROPOSED, question: `the published ${c} against the conservative ladder` })),
];

/** The point outcomes each secondary comparison is tested on (exact McNemar, unadjusted). */
export const SECONDARY_OUTCOMES = ['anyFalsePrune', 'anyObligationLost'] as const;
