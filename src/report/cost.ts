// Provider cost of a condition: the predictor's management calls (summary.modelUsage) plus the model reader's
// probe calls (behaviour.usage), each priced by the run from the dated pricing table. The embedded backends make no
// calls, so their runs record no usage and the tables say so instead of printing a cost of 0.
import type { ModelUsage, Summary } from '../artifacts/schema.js';
import { addUsd } from '../providers/pricing.js';

/** What a table prints where the cost is not known. */
export const COST_UNKNOWN = 'not known (embedded backends)';

/**
 * US dollars the condition's model calls cost, or null when the results record no model usage, or record usage
 * some rate of which the pricing table does not confirm (a partial sum would understate the cost).
 */
export function providerCost(summary: Summary): number | null {
  const blocks = [summary.modelUsage, summary.behaviour.usage].filter((u): u is ModelUsage => u !== null);
  if (blocks.length === 0 || blocks.some((u) => u.costUsd === null)) return null;
  return blocks.reduce((sum, u) => addUsd(sum, u.costUsd ?? 0), 0);
}
