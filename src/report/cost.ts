// Provider cost of a condition. The built-in study calls no paid model (predictor and reader are embedded), so no
// cost is known yet; this is the one place a model-usage block in the summaries will be priced.
import type { Summary } from '../artifacts/schema.js';

/** What a table prints where the cost is not known. */
export const COST_UNKNOWN = 'not known (embedded backends)';

/** US dollars the condition's model calls cost, or null when the results record no priced usage. */
export function providerCost(summary: Summary): number | null {
  void summary;
  return null;
}
