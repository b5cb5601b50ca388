// The control condition: the raw history, nothing removed, against which every other condition is compared.
import type { Condition } from './types.js';

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
      return view.items.map((item) => ({
        itemId: item.id,
        verdict: 'keep',
        rule: RAW,
        rung: null,
        reason: 'control condition keeps every item',
        obligationsConsulted: [],
      }));
    },
  };
}
