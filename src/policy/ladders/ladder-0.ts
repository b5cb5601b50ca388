// Layer B, first step: the gate, then rung 0 alone.
import { defineCondition } from '../definition.js';
import { ladder, LADDER_VERSION } from '../ladder.js';
import { exactRedundancy } from '../mechanisms/exact-redundancy.js';

export const definition = defineCondition({
  name: 'ladder-0',
  layer: 'B',
  rung: 0,
  version: LADDER_VERSION,
  description: 'gate, then exact redundancy',
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () => ladder({ name: 'ladder-0', rules: [exactRedundancy()], description: definition.description }),
});
