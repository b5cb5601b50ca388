// Comparator: the regenerability record's safe_prune. "The model proposes; the oracle disposes": the embedded
// predictor proposes evictions, and if any proposed candidate is unsafe the WHOLE prune is refused, because partial
// pruning of a dependency set is unsafe.
//
// Facts verified against the record (the design source regenerability-oracle.md): safe_prune raises
// UnsafePruneError, evicting nothing, when any candidate is irreducible or referenced_by_pending_step (or a durable
// pointer with no content); its Decision Boundary lists the refusal cases as non-idempotent output, transient
// state, negative result, sole record of a user constraint/credential, and reference by an unresolved promise.
// Mapping here:
// - the refusal cases are the one regenerability gate (`regenerabilityGate`, regenerability.ts) every gated rule
//   passes through, identical-copy exception included: a proposal set is refused whole when the gate refuses any of
//   its members (a copy proposed together with the item it would vouch for does not stay, so it vouches for nothing);
// - pinned, protected and refused items are never shown to the predictor (the seam withholds them), so they are
//   never proposed: they are KEEP with the reason they were withheld;
// - an unusable prediction (a failed call, an answer naming what it was not shown, a confidence below the
//   threshold) is ABSTAIN for every item it would have decided, never KEEP.
import type { PolicyView } from '../../fixture/view.js';
import type { Predictor } from '../mechanisms/predictive-semantic.js';
import {
  consult,
  DEFAULT_MIN_CONFIDENCE,
  DEFAULT_THRESHOLD,
  lexicalPredictor,
  withheldFromClassifier,
} from '../mechanisms/predictive-semantic.js';
import { visibleIds } from '../protection.js';
import { classify, regenerabilityGate } from '../regenerability.js';
import type { Condition, Eligibility } from '../types.js';
import { defineCondition } from '../definition.js';

export const REGENERABILITY_GUARD = 'regenerability-guard';

const GUARD_REFERENCE =
  "regenerability record's safe_prune: whole-prune refusal when any candidate is irreducible or referenced by a pending step";

export interface RegenerabilityGuardParameters {
  readonly threshold?: number;
  readonly predictor?: Predictor;
  readonly predictorLabel?: string;
  readonly minConfidence?: number;
}

export function regenerabilityGuard(parameters: RegenerabilityGuardParameters = {}): Condition {
  const threshold = parameters.threshold ?? DEFAULT_THRESHOLD;
  const minConfidence = parameters.minConfidence ?? DEFAULT_MIN_CONFIDENCE;
  const predictor = parameters.predictor ?? lexicalPredictor(threshold);
  const rule = REGENERABILITY_GUARD;
  return {
    name: rule,
    layer: 'comparator',
    rung: 4,
    version: '2.7.0',
    description: `${parameters.predictor ? (parameters.predictorLabel ?? 'an injected predictor') : 'the embedded predictor'} proposes among the items it may be shown; any proposal the regenerability gate refuses refuses the whole prune`,
    upperRisk: false,
    consultsObligations: true,
    parameters: {
      threshold,
      minConfidence,
      predictor: parameters.predictor ? (parameters.predictorLabel ?? 'injected') : 'lexical-overlap',
    },
    reference: GUARD_REFERENCE,
    decide(view: PolicyView) {
      const checked = visibleIds(view);
      const { unneeded, unusable } = consult(
        predictor,
        view,
        view.items.map((item) => item.id),
        'gated',
        minConfidence,
      );
      const proposed = view.items.filter((item) => unneeded.has(item.id)).map((item) => item.id);
      const refused = regenerabilityGate(view, proposed);
      const refusing = proposed.filter((id) => refused.has(id));
      // Each refused proposal carries its own refusal; every other proposal names the first and counts the rest, so
      // a point's records grow with its items, not with items times refusals.
      const named = refusing.length > 1 ? `${refusing[0]} and ${refusing.length - 1} more` : refusing[0];
      return view.items.map((item): Eligibility => {
        const failed = unusable.get(item.id);
        if (failed !== undefined)
          return { itemId: item.id, verdict: 'abstain', rule, rung: 4, reason: failed, obligationsConsulted: checked };
        const why = unneeded.get(item.id);
        if (why === undefined) {
          const withheld = withheldFromClassifier(view, item, 'gated');
          return withheld
            ? {
                itemId: item.id,
                verdict: 'keep',
                rule,
                rung: null,
                reason: `never shown to the predictor: ${withheld}`,
                obligationsConsulted: checked,
              }
            : {
                itemId: item.id,
                verdict: 'keep',
                rule,
                rung: null,
                reason: 'not proposed by the predictor',
                obligationsConsulted: [],
              };
        }
        if (refusing.length > 0) {
          const own = refused.get(item.id);
          return {
            itemId: item.id,
            verdict: 'abstain',
            rule,
            rung: 4,
            reason:
              own !== undefined
                ? `whole prune refused: this proposed candidate is not safely evictable (${own}); ${refusing.length} proposed candidate(s) refused in all`
                : `whole prune refused: ${refusing.length} proposed candidate(s) not safely evictable (${named}), each naming its refusal in its own record`,
            obligationsConsulted: checked,
          };
        }
        const regenerability = classify(view, item);
        return {
          itemId: item.id,
          verdict: 'eligible',
          rule,
          rung: 4,
          reason: `proposed (${why}); the regenerability gate refuses no proposed candidate; class ${regenerability.class}: ${regenerability.why}`,
          obligationsConsulted: checked,
        };
      });
    },
  };
}

export const definition = defineCondition({
  name: REGENERABILITY_GUARD,
  layer: 'comparator',
  rung: 4,
  version: '2.7.0',
  description:
    'the embedded predictor proposes among the items it may be shown; any proposal the regenerability gate refuses refuses the whole prune',
  upperRisk: false,
  consultsObligations: true,
  parameters: { threshold: DEFAULT_THRESHOLD, minConfidence: DEFAULT_MIN_CONFIDENCE, predictor: 'lexical-overlap' },
  reference: GUARD_REFERENCE,
  consumes: { predictor: 'gated' },
  build: ({ predictor }) =>
    regenerabilityGuard(predictor ? { predictor: predictor.predictor, predictorLabel: predictor.label } : {}),
});
