// Comparator: the regenerability record's safe_prune. "The model proposes; the oracle disposes": the embedded
// predictor proposes evictions, and if any proposed candidate is unsafe the WHOLE prune is refused, because partial
// pruning of a dependency set is unsafe.
//
// Facts verified against the record (the design source regenerability-oracle.md): safe_prune raises
// UnsafePruneError, evicting nothing, when any candidate is irreducible or referenced_by_pending_step (or a durable
// pointer with no content); its Decision Boundary lists the refusal cases as non-idempotent output, transient
// state, negative result, sole record of a user constraint/credential, and reference by an unresolved promise.
// Mapping here:
// - the refusal cases are `refusalCase` (regenerability.ts), which encodes that list; `classify`'s broader
//   irreducible class (any mutable read, any model reasoning) is not a refusal, since the record's boundary list is
//   what the spec adopts;
// - "referenced by a pending step" is one of the protections `protectionOf` derives; the other declared protections
//   (pins, protected tools, visible obligations) are refusals of the same kind, so a proposal that includes any
//   protected item is refused whole rather than partially executed;
// - pointer loss cannot be checked from a policy's view (the view carries no store), so it is not a refusal here.
import type { PolicyView } from '../../fixture/view.js';
import type { Predictor } from '../mechanisms/predictive-semantic.js';
import { DEFAULT_THRESHOLD, isAbstention, lexicalPredictor } from '../mechanisms/predictive-semantic.js';
import { protectionOf, visibleIds } from '../protection.js';
import { classify, refusalCase } from '../regenerability.js';
import type { Condition, Eligibility } from '../types.js';

export const REGENERABILITY_GUARD = 'regenerability-guard';

export interface RegenerabilityGuardParameters {
  readonly threshold?: number;
  readonly predictor?: Predictor;
  readonly predictorLabel?: string;
}

export function regenerabilityGuard(parameters: RegenerabilityGuardParameters = {}): Condition {
  const threshold = parameters.threshold ?? DEFAULT_THRESHOLD;
  const predictor = parameters.predictor ?? lexicalPredictor(threshold);
  const rule = REGENERABILITY_GUARD;
  return {
    name: rule,
    layer: 'comparator',
    rung: 4,
    version: '1.0.0',
    description: `${parameters.predictor ? parameters.predictorLabel ?? 'an injected predictor' : 'the embedded predictor'} proposes; any refusal case or protected item among the proposals refuses the whole prune`,
    upperRisk: false,
    consultsObligations: true,
    parameters: { threshold, predictor: parameters.predictor ? parameters.predictorLabel ?? 'injected' : 'lexical-overlap' },
    reference: "regenerability record's safe_prune: whole-prune refusal when any candidate is irreducible or referenced by a pending step",
    decide(view: PolicyView) {
      const proposed = predictor(view, view.items.map((item) => item.id));
      const checked = visibleIds(view);
      // With no proposal there is nothing to guard; every item says why rather than passing for a considered KEEP.
      if (isAbstention(proposed)) {
        return view.items.map((item): Eligibility => ({
          itemId: item.id, verdict: 'abstain', rule, rung: 4, reason: `predictor abstained: ${proposed.abstain}`, obligationsConsulted: checked,
        }));
      }
      const refusals: string[] = [];
      for (const item of view.items) {
        if (!proposed.has(item.id)) continue;
        const refusal = refusalCase(view, item);
        if (refusal) refusals.push(`${item.id}: ${refusal}`);
        const protection = protectionOf(view, item);
        if (protection) refusals.push(`${item.id}: ${protection.reason}`);
      }
      return view.items.map((item): Eligibility => {
        const why = proposed.get(item.id);
        if (why === undefined) {
          return { itemId: item.id, verdict: 'keep', rule, rung: null, reason: 'not proposed by the predictor', obligationsConsulted: [] };
        }
        if (refusals.length > 0) {
          return {
            itemId: item.id,
            verdict: 'abstain',
            rule,
            rung: 4,
            reason: `whole prune refused: ${refusals.length} proposed candidate(s) not safely evictable (${refusals.join('; ')})`,
            obligationsConsulted: checked,
          };
        }
        const regenerability = classify(view, item);
        return {
          itemId: item.id,
          verdict: 'eligible',
          rule,
          rung: 4,
          reason: `proposed (${why}); no proposed candidate has a refusal case; class ${regenerability.class}: ${regenerability.why}`,
          obligationsConsulted: checked,
        };
      });
    },
  };
}
