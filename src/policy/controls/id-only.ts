// Control: the best a policy reading only item ids could do. It keys each item by its id tokens (./features.ts:
// split at non-alphanumerics and digit runs, digits dropped) and prunes when the training corpus found that token
// combination removable at least THRESHOLD of the time. On a corpus that does not leak through ids every key's rate
// is about the base rate, so it prunes nothing or prunes at the base rate's precision.
import { idTokens } from './features.js';
import type { PolicyView } from '../../fixture/view.js';
import type { Condition } from '../types.js';
import { CONTROL_VERSION, rateControl } from './rate-control.js';
import { readControlTable } from './tables.js';
import type { RateTable } from './rate-table.js';
import { defineCondition } from '../definition.js';

export const ID_ONLY = 'id-only';

/** An adversary that wants (almost) no false prunes: only keys removable at least 99 times in 100 in training. */
export const ID_ONLY_THRESHOLD = 0.99;

export function idKey(view: PolicyView, index: number): string {
  return idTokens(view.items[index]!.id).join('-');
}

export function idOnly(table: RateTable = readControlTable(ID_ONLY)): Condition {
  return rateControl({
    name: ID_ONLY,
    description: `control: prunes an item when its id tokens were removable at least ${String(ID_ONLY_THRESHOLD * 100)}% of the time in a training corpus of seed ${String(table.training.seed)}`,
    table,
    threshold: ID_ONLY_THRESHOLD,
    keyOf: idKey,
  });
}

/** Its description and parameters gain the training seed and the table's hash when it is built (the table is read then). */
export const definition = defineCondition({
  name: ID_ONLY,
  layer: 'control',
  rung: null,
  version: CONTROL_VERSION,
  description: `control: prunes an item when its id tokens were removable at least ${String(ID_ONLY_THRESHOLD * 100)}% of the time in a training corpus`,
  upperRisk: true,
  consultsObligations: false,
  parameters: { threshold: ID_ONLY_THRESHOLD },
  build: () => idOnly(),
});
