// The shape both feature-reading controls share: key each item by one visible feature, look the key up in a frozen
// table fitted on a training corpus, prune when the estimated removable rate reaches the threshold. Such a control is
// the best simple adversary that reads only that feature: if it prunes safely, the corpus can be gamed by it.
import type { PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition } from '../types.js';
import { estimateOf, type RateTable } from './rate-table.js';

export interface RateControlOptions {
  readonly name: string;
  readonly description: string;
  readonly table: RateTable;
  readonly threshold: number;
  /** What the control reads of item `index` in the view. */
  readonly keyOf: (view: PolicyView, index: number) => string;
}

export const CONTROL_VERSION = '1.0.0';

export function rateControl(o: RateControlOptions): Condition {
  const verdict = comparatorVerdict(o.name);
  return {
    name: o.name,
    layer: 'control',
    rung: null,
    version: CONTROL_VERSION,
    description: o.description,
    // It removes on a guess from a feature, never on evidence: never proposed as policy.
    upperRisk: true,
    consultsObligations: false,
    parameters: { threshold: o.threshold, trainingSeed: o.table.training.seed, table: o.table.sha256.slice(0, 12) },
    decide(view) {
      return view.items.map((item, index) => {
        const key = o.keyOf(view, index);
        const rate = estimateOf(o.table, key);
        const why = `training removable rate ${rate.toFixed(3)} for ${o.table.key} "${key}"`;
        return rate >= o.threshold
          ? verdict(item.id, 'eligible', `${why}, at or above ${String(o.threshold)}`)
          : verdict(item.id, 'keep', `${why}, below ${String(o.threshold)}`);
      });
    },
  };
}
