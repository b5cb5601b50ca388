// The conservative ladder's evidence rules, rungs 0 to 3 in the order the chapter gives them: ladder-0-3 and
// ladder-0-4 apply them before their predictor step, and a model-backed predictor's request for those ladders is
// built from what they leave open (`conservativePredictorStep`), so the model is shown what the ladder would ask it.
import type { PolicyView } from '../fixture/view.js';
import type { ConfiguredMechanism } from './eligibility.js';
import { predictorStep } from './ladder.js';
import { checkedSupersession } from './mechanisms/checked-supersession.js';
import { erroredInputResidue } from './mechanisms/errored-input-residue.js';
import { exactRedundancy } from './mechanisms/exact-redundancy.js';
import { sourceIdentity } from './mechanisms/source-identity.js';
import { verifiedCompletion } from './mechanisms/verified-completion.js';

export function conservativeRules(): ConfiguredMechanism[] {
  return [exactRedundancy(), sourceIdentity(), erroredInputResidue(), checkedSupersession(), verifiedCompletion()];
}

const RULES = conservativeRules();

/** The context and the open candidates at ladder-0-3's and ladder-0-4's predictor step (one answer serves both). */
export function conservativePredictorStep(view: PolicyView): ReturnType<typeof predictorStep> {
  return predictorStep(view, RULES);
}
