// Control: every item eligible, so every item is pruned. The engine itself protects nothing (pinned items, protected
// tools, obligations and plan references are the gate's, which this control does not consult); only with
// placeholders none does it keep one half of a call/result pair the other half of which stays, and here both go.
// Its harm rate is the corpus's whole necessary share: the floor every measure is read against.
import { comparatorVerdict } from '../eligibility.js';
import type { Condition } from '../types.js';
import { defineCondition } from '../definition.js';

export const PRUNE_ALL = 'prune-all';

export function pruneAll(): Condition {
  const verdict = comparatorVerdict(PRUNE_ALL);
  return {
    name: PRUNE_ALL,
    layer: 'control',
    rung: null,
    version: '1.0.0',
    description: 'control: prune every item, protecting nothing',
    upperRisk: true,
    consultsObligations: false,
    parameters: {},
    decide: (view) => view.items.map((item) => verdict(item.id, 'eligible', 'control condition prunes every item')),
  };
}

export const definition = defineCondition({
  name: PRUNE_ALL,
  layer: 'control',
  rung: null,
  version: '1.0.0',
  description: 'control: prune every item, protecting nothing',
  upperRisk: true,
  consultsObligations: false,
  parameters: {},
  build: () => pruneAll(),
});
