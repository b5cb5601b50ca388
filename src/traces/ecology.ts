// The ecological gate: how much of a trace's active context each class of pruning candidate would touch, and what
// the regenerability record distinguishes in it. Every class is computed by the mechanism that acts on it (the
// same code the conditions run), over the context at the trace's last prune point. These are candidate volumes:
// not safe removals (nothing checks obligations here) and not labels (nothing here is ground truth).
//
// Each class is decided twice. Strictly, on recorded evidence only (a version inferred by an importer is set back to
// UNKNOWN). Then under the stated assumption "no writer but the agent" (versions inferred from the agent's own
// writes, see infer-versions.ts): what that adds is reported beside the strict figures as the weaker guarantee,
// never folded into them.
import type { TokenCounter } from '../accounting/tokens.js';
import type { Fixture } from '../fixture/schema.js';
import { buildView, type PolicyView, type ViewItem } from '../fixture/view.js';
import { checkedSupersession } from '../policy/mechanisms/checked-supersession.js';
import { erroredInputResidue } from '../policy/mechanisms/errored-input-residue.js';
import { exactRedundancy } from '../policy/mechanisms/exact-redundancy.js';
import { sourceIdentity } from '../policy/mechanisms/source-identity.js';
import { verifiedCompletion } from '../policy/mechanisms/verified-completion.js';
import { classify, refusalCase } from '../policy/regenerability.js';
import { inferAgentWriteVersions, withoutInferredVersions } from './infer-versions.js';
import type { Mechanism } from '../policy/types.js';

export const CANDIDATE_CLASSES = [
  {
    key: 'exact-duplicate',
    label: 'exact duplicates (identical payload)',
    short: 'exact duplicates',
    mechanism: exactRedundancy(),
  },
  {
    key: 'repeated-read',
    label: 'repeated reads of an unchanged source',
    short: 'repeated reads, unchanged source',
    mechanism: sourceIdentity(),
  },
  {
    key: 'failed-call-bulk',
    label: 'failed-call input bulk',
    short: 'failed-call input bulk',
    mechanism: erroredInputResidue(),
  },
  {
    key: 'superseded',
    label: 'observations a later same-source one checkably covers',
    short: 'checkably covered observations',
    mechanism: checkedSupersession(),
  },
  {
    key: 'completed-work',
    label: 'completed-work residue',
    short: 'completed-work residue',
    mechanism: verifiedCompletion(),
  },
] as const satisfies readonly { key: string; label: string; short: string; mechanism: Mechanism }[];

export const REGENERABILITY_CLASSES = [
  { key: 'non-idempotent-output', label: 'outputs of non-idempotent calls', short: 'non-idempotent call outputs' },
  { key: 'transient-state', label: 'transient-state observations', short: 'transient-state observations' },
  { key: 'negative-result', label: 'negative results', short: 'negative results' },
  { key: 'single-mention-constraint', label: 'single-mention user constraints', short: 'single-mention constraints' },
  { key: 'irreducible', label: 'irreducible (regenerability class)', short: 'irreducible (regenerability)' },
] as const;

export type CandidateKey = (typeof CANDIDATE_CLASSES)[number]['key'];
export type RegenerabilityKey = (typeof REGENERABILITY_CLASSES)[number]['key'];

export interface Volume {
  readonly items: number;
  readonly tokens: number;
}

/** One class under the assumption "no writer but the agent". */
export interface AssumedVolumes {
  /** Eligible under the assumption and not on recorded evidence alone: what the assumption adds. */
  readonly eligible: Volume;
  /** Where the mechanism still lacks the evidence it needs, even under the assumption. */
  readonly undecided: Volume;
}

/** The assumption the weaker columns are decided under, in the words every output states it. */
export const ASSUMPTION = 'no writer but the agent';

export interface TraceEcology {
  readonly fixture: string;
  /** The recorder's format, or "fixture" for a hand-authored one. */
  readonly format: string;
  readonly prunePoint: string;
  readonly items: number;
  /** The denominator of every share: the active context's tokens at that prune point. */
  readonly contextTokens: number;
  /** What each class's mechanism finds eligible, and where it applies but lacks the evidence to decide. */
  readonly candidates: Record<
    CandidateKey,
    { readonly eligible: Volume; readonly undecided: Volume; readonly assumed: AssumedVolumes }
  >;
  /** Tokens no class finds eligible. */
  readonly rest: Volume;
  /** Tokens at least one class finds eligible (classes overlap, so this is not their sum). */
  readonly anyClass: Volume;
  /** Tokens at least one class finds eligible, strictly or under the assumption. */
  readonly anyClassAssumed: Volume;
  readonly regenerability: Record<RegenerabilityKey, Volume>;
}

function volume(items: readonly ViewItem[]): Volume {
  return { items: items.length, tokens: items.reduce((s, i) => s + i.tokens, 0) };
}

/** The fixture's last prune point: the widest context the trace offers. */
function lastPoint(f: Fixture): string {
  return [...f.prunePoints].sort((a, b) => b.turn - a.turn)[0]!.id;
}

const NO_FLAGS = {
  negativeResult: false,
  transientState: false,
  oneTimeSecret: false,
  soleConstraintRecord: false,
  pendingPlanReference: false,
};

/** The refusal case of the call's side effect alone (the record's non-idempotent-output case), flags aside. */
function nonIdempotentOutput(view: PolicyView, item: ViewItem): boolean {
  return refusalCase(view, { ...item, flags: NO_FLAGS }) !== undefined;
}

export function traceEcology(fixture: Fixture, tokens: TokenCounter): TraceEcology {
  const strict = withoutInferredVersions(fixture);
  const point = lastPoint(fixture);
  const view = buildView(strict, point, tokens);
  const assumedView = buildView(inferAgentWriteVersions(strict), point, tokens);
  const all = view.items.map((i) => i.id);
  const byId = new Map(view.items.map((i) => [i.id, i]));
  const eligibleAnywhere = new Set<string>();
  const eligibleAssumed = new Set<string>();
  const candidates = {} as Record<CandidateKey, { eligible: Volume; undecided: Volume; assumed: AssumedVolumes }>;
  for (const c of CANDIDATE_CLASSES) {
    const outcomes = new Map(c.mechanism.assess(view, all).map((f) => [f.itemId, f.outcome]));
    const assumedOutcomes = new Map(c.mechanism.assess(assumedView, all).map((f) => [f.itemId, f.outcome]));
    const pick = (from: Map<string, string>, outcome: 'eligible' | 'abstain') =>
      view.items.filter((i) => from.get(i.id) === outcome);
    const eligible = pick(outcomes, 'eligible');
    for (const i of eligible) eligibleAnywhere.add(i.id);
    const added = pick(assumedOutcomes, 'eligible').filter((i) => outcomes.get(i.id) !== 'eligible');
    for (const i of [...eligible, ...added]) eligibleAssumed.add(i.id);
    candidates[c.key] = {
      eligible: volume(eligible),
      undecided: volume(pick(outcomes, 'abstain')),
      assumed: { eligible: volume(added), undecided: volume(pick(assumedOutcomes, 'abstain')) },
    };
  }
  const where = (test: (i: ViewItem) => boolean) => volume(view.items.filter(test));
  return {
    fixture: fixture.id,
    format: fixture.imported?.format ?? 'fixture',
    prunePoint: view.prunePoint.id,
    items: view.items.length,
    contextTokens: view.contextTokens,
    candidates,
    rest: where((i) => !eligibleAnywhere.has(i.id)),
    anyClass: volume([...eligibleAnywhere].map((id) => byId.get(id)!)),
    anyClassAssumed: volume([...eligibleAssumed].map((id) => byId.get(id)!)),
    regenerability: {
      'non-idempotent-output': where((i) => nonIdempotentOutput(view, i)),
      'transient-state': where((i) => i.flags.transientState),
      'negative-result': where((i) => i.flags.negativeResult),
      'single-mention-constraint': where((i) => i.flags.soleConstraintRecord),
      irreducible: where((i) => classify(view, i).class === 'irreducible'),
    },
  };
}

/** The pooled row: sums of numerators and of denominators over traces (never an average of shares). */
export function totalEcology(traces: readonly TraceEcology[]): TraceEcology {
  const add = (f: (t: TraceEcology) => Volume): Volume => ({
    items: traces.reduce((s, t) => s + f(t).items, 0),
    tokens: traces.reduce((s, t) => s + f(t).tokens, 0),
  });
  const candidates = {} as Record<CandidateKey, { eligible: Volume; undecided: Volume; assumed: AssumedVolumes }>;
  for (const c of CANDIDATE_CLASSES) {
    candidates[c.key] = {
      eligible: add((t) => t.candidates[c.key].eligible),
      undecided: add((t) => t.candidates[c.key].undecided),
      assumed: {
        eligible: add((t) => t.candidates[c.key].assumed.eligible),
        undecided: add((t) => t.candidates[c.key].assumed.undecided),
      },
    };
  }
  const regenerability = {} as Record<RegenerabilityKey, Volume>;
  for (const r of REGENERABILITY_CLASSES) regenerability[r.key] = add((t) => t.regenerability[r.key]);
  return {
    fixture: 'total',
    format: '-',
    prunePoint: '-',
    items: traces.reduce((s, t) => s + t.items, 0),
    contextTokens: traces.reduce((s, t) => s + t.contextTokens, 0),
    candidates,
    rest: add((t) => t.rest),
    anyClass: add((t) => t.anyClass),
    anyClassAssumed: add((t) => t.anyClassAssumed),
    regenerability,
  };
}
