// Control: the best a policy reading only where an item sits could do. It keys each item by its relative position in
// the context (ten equal bins) and its age in turns (doubling bins) and prunes when the training corpus found that
// cell removable at least THRESHOLD of the time. On a corpus whose layout does not leak it cannot beat the base rate.
import { ageBin, ageInTurns, positionBin, relativePosition } from './features.js';
import type { PolicyView } from '../../fixture/view.js';
import type { Condition } from '../types.js';
import { CONTROL_VERSION, rateControl } from './rate-control.js';
import type { RateTable } from './rate-table.js';
import { readControlTable } from './tables.js';
import { defineCondition } from '../definition.js';

export const POSITION_ONLY = 'position-only';

/** The same bar as id-only: an adversary that wants (almost) no false prunes. */
export const POSITION_ONLY_THRESHOLD = 0.99;

export function positionKey(view: PolicyView, index: number): string {
  return `pos${String(positionBin(relativePosition(view, index)))}|age${String(ageBin(ageInTurns(view, index)))}`;
}

export function positionOnly(table: RateTable = readControlTable(POSITION_ONLY)): Condition {
  return rateControl({
    name: POSITION_ONLY,
    description: `control: prunes an item when its relative position and age were removable at least ${String(POSITION_ONLY_THRESHOLD * 100)}% of the time in a training corpus of seed ${String(table.training.seed)}`,
    table,
    threshold: POSITION_ONLY_THRESHOLD,
    keyOf: positionKey,
  });
}

/** Its description and parameters gain the training seed and the table's hash when it is built (the table is read then). */
export const definition = defineCondition({
  name: POSITION_ONLY,
  layer: 'control',
  rung: null,
  version: CONTROL_VERSION,
  description: `control: prunes an item when its relative position and age were removable at least ${String(POSITION_ONLY_THRESHOLD * 100)}% of the time in a training corpus`,
  upperRisk: true,
  consultsObligations: false,
  parameters: { threshold: POSITION_ONLY_THRESHOLD },
  build: () => positionOnly(),
});
