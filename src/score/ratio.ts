// A proportion is never reported without what it is a proportion of; 0/0 is undefined, not perfect.
import type { Ratio } from '../artifacts/schema.js';

export function ratio(numerator: number, denominator: number): Ratio {
  if (!Number.isInteger(numerator) || !Number.isInteger(denominator) || numerator < 0 || numerator > denominator) {
    throw new Error(`internal: a ratio needs 0 <= numerator <= denominator, got ${numerator}/${denominator}`);
  }
  return { numerator, denominator, value: denominator === 0 ? null : numerator / denominator };
}

/** Pools ratios by summing numerators and denominators (never by averaging values). */
export function pool(ratios: readonly Ratio[]): Ratio {
  return ratio(ratios.reduce((s, r) => s + r.numerator, 0), ratios.reduce((s, r) => s + r.denominator, 0));
}
