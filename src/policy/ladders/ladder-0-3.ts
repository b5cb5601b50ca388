// Layer B, the conservative policy the chapter proposes: the gate, then rungs 0 to 3 cumulatively; an item only the
// predictor would remove is ABSTAIN. It is also registered with timings of its own, so the study exercises DEFER.
import { defineCondition } from '../definition.js';
import { ladder, LADDER_VERSION } from '../ladder.js';
import { conservativeRules } from '../conservative.js';
import { DEFAULT_MIN_CONFIDENCE, DEFAULT_THRESHOLD, predictiveSemantic } from '../mechanisms/predictive-semantic.js';
import { DEFAULT_CACHE_PROFILE } from '../../timing/timing.js';

export const definition = defineCondition({
  name: 'ladder-0-3',
  layer: 'B',
  rung: 3,
  version: LADDER_VERSION,
  description:
    'gate, then rungs 0-3 cumulatively; an item only the predictor would remove is ABSTAIN (conservative policy)',
  upperRisk: false,
  consultsObligations: true,
  parameters: {
    threshold: DEFAULT_THRESHOLD,
    minConfidence: DEFAULT_MIN_CONFIDENCE,
    predictor: 'lexical-overlap',
    predictorMode: 'abstain',
  },
  consumes: { predictor: 'ladder' },
  timings: [
    { kind: 'task-boundary' },
    { kind: 'pressure', threshold: 0.8 },
    { kind: 'cache-safe', profile: DEFAULT_CACHE_PROFILE },
  ],
  build: ({ predictor }) =>
    ladder({
      name: 'ladder-0-3',
      rules: conservativeRules(),
      predictor: {
        mode: 'abstain',
        mechanism: predictiveSemantic(
          predictor
            ? { predictor: predictor.predictor, predictorLabel: predictor.label, scope: 'ladder' }
            : { scope: 'ladder' },
        ),
      },
      description: definition.description,
    }),
});
