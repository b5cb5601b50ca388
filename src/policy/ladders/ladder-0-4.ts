// Layer B, upper-risk: the conservative ladder with the predictor as its last rule, so prediction removes.
import { defineCondition } from '../definition.js';
import { ladder, LADDER_VERSION } from '../ladder.js';
import { conservativeRules } from '../conservative.js';
import { DEFAULT_MIN_CONFIDENCE, DEFAULT_THRESHOLD, predictiveSemantic } from '../mechanisms/predictive-semantic.js';

export const definition = defineCondition({
  name: 'ladder-0-4',
  layer: 'B',
  rung: 4,
  version: LADDER_VERSION,
  description: 'gate, then rungs 0-3 cumulatively and the predictor as the last rule (upper-risk)',
  upperRisk: true,
  consultsObligations: true,
  parameters: {
    threshold: DEFAULT_THRESHOLD,
    minConfidence: DEFAULT_MIN_CONFIDENCE,
    predictor: 'lexical-overlap',
    predictorMode: 'apply',
  },
  consumes: { predictor: 'ladder' },
  build: ({ predictor }) =>
    ladder({
      name: 'ladder-0-4',
      rules: conservativeRules(),
      predictor: {
        mode: 'apply',
        mechanism: predictiveSemantic(
          predictor
            ? { predictor: predictor.predictor, predictorLabel: predictor.label, scope: 'ladder' }
            : { scope: 'ladder' },
        ),
      },
      description: definition.description,
    }),
});
