// The predictor seam's types: what every rung-4 consumer asks and a model-backed predictor answers. Kept apart from
// the embedded predictor so a condition's definition can name the seam without importing a mechanism.
import type { PolicyView } from '../fixture/view.js';

/** One item the predictor says will not be needed: its stated basis and its confidence in [0, 1]. */
export interface Prediction {
  readonly reason: string;
  readonly confidence: number;
}

/**
 * Which items a consumer may show the classifier. `gated`: neither pinned nor protected items nor those the
 * regenerability gate refuses (with no identical copy in context). `ladder`: the same, as ladder-0-3 and ladder-0-4 ask
 * at their predictor step, after their evidence rules: nothing those rules removed and nothing a removal rests on
 * (a model-backed predictor gets a request of its own for them). `ungated`: the Layer A ablation, which has no
 * regenerability gate by design, withholds only what the runtime pinned or protects; the refusal cases are what its
 * risk is measured on.
 */
export type PredictorScope = 'gated' | 'ladder' | 'ungated';

/**
 * The items among `candidates` predicted not to be needed. Keys are meaningful only as a lookup: callers walk the
 * view's order, never the map's. A predictor is only ever asked about items `classifierCandidates` lets through.
 */
export type Predictor = (
  view: PolicyView,
  candidates: readonly string[],
  scope: PredictorScope,
) => ReadonlyMap<string, Prediction> | PredictorAbstention;

/** A predictor that could not predict (a model answered unusably or failed): every item it was asked about is ABSTAIN. */
export interface PredictorAbstention {
  readonly abstain: string;
}
