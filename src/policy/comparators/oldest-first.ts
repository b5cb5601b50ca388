// Comparator: the age-only rule the chapter calls among the least defensible (old is not discardable). It removes
// items from the front of the context, whatever their kind, until the context fits the prune point's budget.
import type { PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition } from '../types.js';
import { defineCondition } from '../definition.js';

export const OLDEST_FIRST = 'oldest-first';

const OLDEST_FIRST_REFERENCE = 'age-only eviction (drop oldest first until within the token budget)';

export function oldestFirst(): Condition {
  const rule = OLDEST_FIRST;
  return {
    name: rule,
    layer: 'comparator',
    rung: null,
    version: '1.0.0',
    description: 'remove the oldest items, of any kind, one by one until the context fits budgetTokens',
    upperRisk: false,
    consultsObligations: false,
    parameters: {},
    reference: OLDEST_FIRST_REFERENCE,
    decide(view: PolicyView) {
      const budget = view.prunePoint.budgetTokens;
      let occupied = view.contextTokens;
      let removed = 0;
      const verdict = comparatorVerdict(rule);
      return view.items.map((item) => {
        if (occupied <= budget) {
          return verdict(
            item.id,
            'keep',
            `context fits the budget of ${budget} tokens at ${occupied} after removing ${removed} older item(s)`,
          );
        }
        const before = occupied;
        occupied -= item.tokens;
        removed += 1;
        return verdict(
          item.id,
          'eligible',
          `oldest remaining item while the context (${before} tokens) exceeds the budget of ${budget}`,
        );
      });
    },
  };
}

export const definition = defineCondition({
  name: OLDEST_FIRST,
  layer: 'comparator',
  rung: null,
  version: '1.0.0',
  description: 'remove the oldest items, of any kind, one by one until the context fits budgetTokens',
  upperRisk: false,
  consultsObligations: false,
  parameters: {},
  reference: OLDEST_FIRST_REFERENCE,
  build: () => oldestFirst(),
});
