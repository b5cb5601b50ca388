// The control condition: the raw history, nothing removed, against which every other condition is compared.
import { comparatorVerdict } from './eligibility.js';
import type { Condition } from './types.js';
import { defineCondition } from './definition.js';

export const RAW = 'raw';

export function raw(): Condition {
  return {
    name: RAW,
    layer: 'control',
    rung: null,
    version: '1.0.0',
    description: 'control: keep every item',
    upperRisk: false,
    consultsObligations: false,
    parameters: {},
    decide(view) {
      const verdict = comparatorVerdict(RAW);
      return view.items.map((item) => verdict(item.id, 'keep', 'control condition keeps every item'));
    },
  };
}

/** The baseline: every other condition's "against keeping everything" is against this one. */
export const definition = defineCondition({
  name: RAW,
  layer: 'baseline',
  rung: null,
  version: '1.0.0',
  description: 'control: keep every item',
  upperRisk: false,
  consultsObligations: false,
  parameters: {},
  build: () => raw(),
});
