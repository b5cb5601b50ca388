// A proportion is never reported without what it is a proportion of; 0/0 is undefined, not perfect.
import type { OracleRatio, Ratio, Unscored } from '../artifacts/schema.js';

export function ratio(numerator: number, denominator: number): Ratio {
  if (!Number.isInteger(numerator) || !Number.isInteger(denominator) || numerator < 0 || numerator > denominator) {
    throw new Error(`internal: a ratio needs 0 <= numerator <= denominator, got ${numerator}/${denominator}`);
  }
  return { numerator, denominator, value: denominator === 0 ? null : numerator / denominator };
}

/** Pools ratios by summing numerators and denominators (never by averaging values). */
export function pool(ratios: readonly Ratio[]): Ratio {
  return ratio(
    ratios.reduce((s, r) => s + r.numerator, 0),
    ratios.reduce((s, r) => s + r.denominator, 0),
  );
}

/** The reason every oracle measure of an imported trace carries. */
export const NO_ORACLE_REASON = 'imported trace: it has no oracle, so no removal can be judged true or false';

export function unscored(denominator: number | null, reason: string = NO_ORACLE_REASON): Unscored {
  return { numerator: null, denominator, value: null, reason };
}

/**
 * Pools oracle measures. Any unscored point makes the pool unscored (a precision over only the scored part would
 * pass for the whole), with how many points lacked an oracle; per-fixture summaries still score the scored ones.
 */
export function poolOracle(
  ratios: readonly OracleRatio[],
  points: readonly number[] = ratios.map(() => 1),
): OracleRatio {
  const missing = ratios.filter((r): r is Unscored => r.numerator === null);
  if (missing.length === 0) return pool(ratios as readonly Ratio[]);
  // Each ratio may already pool several prune points (a fixture's); the reason counts prune points, not ratios.
  const unscoredPoints = ratios.reduce((n, r, i) => n + (r.numerator === null ? (points[i] ?? 1) : 0), 0);
  const allPoints = points.reduce((n, p) => n + p, 0);
  const denominators = ratios.map((r) => r.denominator);
  const denominator = denominators.every((d): d is number => d !== null)
    ? denominators.reduce((s, d) => s + d, 0)
    : null;
  const reason =
    missing.length === ratios.length
      ? missing[0]!.reason
      : `${unscoredPoints} of ${allPoints} prune points are imported traces with no oracle; see perFixture for the scored fixtures`;
  return unscored(denominator, reason);
}

/**
 * The base rate: the oracle's eligible removals (coverage's denominator) over the items decided on, the precision
 * "prune everything" would reach. Every table that prints a precision or a false-prune rate prints it beside them;
 * unscored (no oracle) when coverage is.
 */
export function baseRate(m: {
  readonly coverage: OracleRatio;
  readonly decisions: { readonly total: number };
}): OracleRatio {
  return m.coverage.numerator === null
    ? unscored(m.decisions.total, m.coverage.reason)
    : ratio(m.coverage.denominator, m.decisions.total);
}
