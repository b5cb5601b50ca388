// Layer B: the gate, then rungs 0 to 2 cumulatively.
import { defineCondition } from '../definition.js';
import { ladder, LADDER_VERSION } from '../ladder.js';
import { exactRedundancy } from '../mechanisms/exact-redundancy.js';
import { sourceIdentity } from '../mechanisms/source-identity.js';
import { erroredInputResidue } from '../mechanisms/errored-input-residue.js';
import { checkedSupersession } from '../mechanisms/checked-supersession.js';

export const definition = defineCondition({
  name: 'ladder-0-2',
  layer: 'B',
  rung: 2,
  version: LADDER_VERSION,
  description:
    'gate, then rungs 0-2 cumulatively: exact redundancy, source identity, errored-input residue, checked supersession',
  upperRisk: false,
  consultsObligations: true,
  parameters: {},
  build: () =>
    ladder({
      name: 'ladder-0-2',
      rules: [exactRedundancy(), sourceIdentity(), erroredInputResidue(), checkedSupersession()],
      description: definition.description,
    }),
});
