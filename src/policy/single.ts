// Layer A: one mechanism alone against the raw history, so its marginal effect can be read off. A consulting
// mechanism sits behind the protection gate and the regenerability gate; the predictive one does not, because it is
// the upper-risk ablation that shows what prediction does without the obligations or the refusal cases.
import {
  fromFinding,
  findingsById,
  heldBackTogether,
  heldBackVerdict,
  keepByDefault,
  mergeIds,
  refuse,
  splitByGate,
} from './eligibility.js';
import type { ConfiguredMechanism } from './eligibility.js';
import { visibleIds } from './protection.js';
import { regenerabilityGate } from './regenerability.js';
import type { Condition, Eligibility, SweepOf } from './types.js';

export interface SingleOptions {
  readonly description: string;
  /** Whether the protection gate runs first (every mechanism but the predictive one). */
  readonly gate: boolean;
  readonly upperRisk: boolean;
  /** The condition's name when it is not the mechanism's rule (a parameter-sweep variant). */
  readonly name?: string;
  readonly sweepOf?: SweepOf;
}

export function single(mechanism: ConfiguredMechanism, options: SingleOptions): Condition {
  return {
    name: options.name ?? mechanism.rule,
    ...(options.sweepOf ? { sweepOf: options.sweepOf } : {}),
    layer: 'A',
    rung: mechanism.rung,
    version: options.gate ? gatedVersion(mechanism.version) : mechanism.version,
    description: options.description,
    upperRisk: options.upperRisk,
    consultsObligations: options.gate,
    parameters: mechanism.parameters,
    decide(view) {
      const checked = options.gate ? visibleIds(view) : [];
      const { gated, candidates } = options.gate
        ? splitByGate(view, checked)
        : { gated: new Map<string, Eligibility>(), candidates: view.items.map((i) => i.id) };
      const findings = findingsById(mechanism.rule, mechanism.assess(view, candidates));
      const held = heldBackTogether(
        view.items.map((item) => item.id),
        findings,
      );
      const eligible = view.items
        .filter((item) => findings.get(item.id)?.outcome === 'eligible' && !held.has(item.id))
        .map((item) => item.id);
      const refused = options.gate ? regenerabilityGate(view, eligible) : new Map<string, string>();
      return view.items.map((item) => {
        const kept = gated.get(item.id);
        if (kept) return kept;
        const finding = findings.get(item.id);
        if (!finding) return keepByDefault(item.id, checked);
        const verdict = fromFinding(finding, mechanism.rule, mechanism.rung, mergeIds(checked, finding.consulted));
        const hold = held.get(item.id);
        if (hold) return heldBackVerdict(verdict, hold);
        const refusal = refused.get(item.id);
        return refusal ? refuse(verdict, refusal) : verdict;
      });
    },
  };
}

/**
 * The regenerability gate (issue 10, rule 6) is part of what a gated condition decides, so a gated single's version
 * is its mechanism's with the major number raised once for it: a mechanism bump still moves the condition's version.
 */
export function gatedVersion(version: string): string {
  const [major = '0', ...rest] = version.split('.');
  return [String(Number(major) + 1), ...rest].join('.');
}
