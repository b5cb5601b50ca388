// Layer B: the gate, then rungs 0 and 1 cumulatively.
import { defineCondition } from '../definition.js';
import { ladder, LADDER_VERSION } from '../ladder.js';
import { exactRedundancy } from '../mechanisms/exact-redundancy.js';
import { sourceIdentity } from '../mechanisms/source-identity.js';

export const definition = defineCondition({
  name: 'ladder-0-1',
  layer: 'B',
  rung: 1,
  version: LADDER_VERSION,
  description: 'gate, then exact redundancy and source identity, cumulatively',
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () =>
    ladder({ name: 'ladder-0-1', rules: [exactRedundancy(), sourceIdentity()], description: definition.description }),
});
