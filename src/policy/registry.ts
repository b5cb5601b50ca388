// Every condition the experiment runs, in the one stable order reports and the CLI use. Conditions are built once
// with their default parameters; all are pure, so sharing the instances is safe.
import { dcpPurgeErrors } from './comparators/dcp-purge-errors.js';
import { DEFAULT_KEEP_LAST, OBSERVATION_MASKING, observationMasking } from './comparators/observation-masking.js';
import { oldestFirst } from './comparators/oldest-first.js';
import { regenerabilityGuard } from './comparators/regenerability-guard.js';
import { sameToolArgsDedup } from './comparators/same-tool-args-dedup.js';
import { ladder } from './ladder.js';
import { checkedSupersession } from './mechanisms/checked-supersession.js';
import { erroredInputResidue } from './mechanisms/errored-input-residue.js';
import { exactRedundancy } from './mechanisms/exact-redundancy.js';
import { DEFAULT_THRESHOLD, PREDICTIVE_SEMANTIC, predictiveSemantic, type Predictor, type PredictorScope } from './mechanisms/predictive-semantic.js';
import { sourceIdentity } from './mechanisms/source-identity.js';
import { verifiedCompletion } from './mechanisms/verified-completion.js';
import { idOnly } from './controls/id-only.js';
import { positionOnly } from './controls/position-only.js';
import { pruneAll } from './controls/prune-all.js';
import { raw } from './raw.js';
import { single } from './single.js';
import { timed, timedName } from './timed.js';
import type { Condition } from './types.js';
import type { Timing } from '../timing/timing.js';

/**
 * The parameter sweeps, so a tunable condition's trade-off is a curve rather than one point. The base conditions
 * keep their defaults (threshold 0.2, M = 10); each variant is an ordinary condition named `<base>@<value>`.
 */
export const SWEEPS = {
  [PREDICTIVE_SEMANTIC]: { parameter: 'threshold', base: DEFAULT_THRESHOLD, values: [0.05, 0.1, 0.3, 0.4, 0.5] },
  [OBSERVATION_MASKING]: { parameter: 'keepLast', base: DEFAULT_KEEP_LAST, values: [1, 2, 5, 20, 40] },
} as const;

export function sweepName(base: string, value: number): string {
  return `${base}@${String(value)}`;
}

const LADDER_0_3 = 'ladder-0-3';

/** The timings the conservative ladder is also registered with, so the study exercises DEFER (name: see timedName). */
export const TIMED: readonly Timing[] = [{ kind: 'task-boundary' }, { kind: 'pressure', threshold: 0.8 }];

function timedLadderNames(): string[] {
  return TIMED.map((timing) => timedName(LADDER_0_3, timing));
}

function sweepVariants(): Condition[] {
  const predictive = SWEEPS[PREDICTIVE_SEMANTIC];
  const masking = SWEEPS[OBSERVATION_MASKING];
  return [
    ...predictive.values.map((threshold) => single(predictiveSemantic({ threshold, scope: 'ungated' }), {
      gate: false,
      upperRisk: true,
      name: sweepName(PREDICTIVE_SEMANTIC, threshold),
      sweepOf: { condition: PREDICTIVE_SEMANTIC, parameter: predictive.parameter, value: threshold },
      description: `sweep of predictive-semantic: lexical relevance below ${String(threshold)}; no gate (upper-risk)`,
    })),
    ...masking.values.map((keepLast) => observationMasking({
      keepLast,
      name: sweepName(OBSERVATION_MASKING, keepLast),
      sweepOf: { condition: OBSERVATION_MASKING, parameter: masking.parameter, value: keepLast },
    })),
  ];
}

/** A predictor to build the rung-4 conditions with instead of the embedded lexical one, and its label. */
export interface InjectedPredictor {
  readonly predictor: Predictor;
  readonly label: string;
}

/** The conditions that consult the predictor, and so change (and make model calls) when one is injected. */
export const PREDICTOR_CONSUMERS: readonly string[] = ['predictive-semantic', 'regenerability-guard', 'ladder-0-3', 'ladder-0-4', ...timedLadderNames()];

/**
 * Which predictor request a consumer reads: the ungated Layer A ablation its own (it may show the classifier the
 * refusal-case items), every gated consumer the one that withholds them. Undefined for a condition that makes none.
 */
export function predictorScopeOf(condition: string): PredictorScope | undefined {
  if (!PREDICTOR_CONSUMERS.includes(condition)) return undefined;
  return condition === PREDICTIVE_SEMANTIC ? 'ungated' : 'gated';
}

function build(injected?: InjectedPredictor): readonly Condition[] {
  const er = exactRedundancy();
  const si = sourceIdentity();
  const eir = erroredInputResidue();
  const cs = checkedSupersession();
  const vc = verifiedCompletion();
  const withPredictor = injected ? { predictor: injected.predictor, predictorLabel: injected.label } : {};
  // Layer A's ablation and the ladders' rung 4 read the same predictor under different scopes (see PredictorScope).
  const psAlone = predictiveSemantic({ ...withPredictor, scope: 'ungated' });
  const ps = predictiveSemantic(withPredictor);
  const predictionText = injected ? `${injected.label} predicts the item unneeded` : `lexical relevance to the subgoal below ${String(ps.parameters.threshold)}`;
  const gated = { gate: true, upperRisk: false } as const;
  const ladder03 = ladder({
    name: LADDER_0_3,
    rules: [er, si, eir, cs, vc],
    predictor: { mode: 'abstain', mechanism: ps },
    description: 'gate, then rungs 0-3 cumulatively; an item only the predictor would remove is ABSTAIN (conservative policy)',
  });
  return [
    raw(),
    pruneAll(),
    idOnly(),
    positionOnly(),
    single(er, { ...gated, description: 'rung 0: tool results identical in call, status and every content block (across calls only where repetition is declared irrelevant); one copy (the latest, or every protected copy) stays' }),
    single(si, { ...gated, description: 'rung 1: reads of the same view (tool and selector) of one source state, established by a version that hashes the content or an immutable source; the latest read stays' }),
    single(eir, { ...gated, description: 'rung 2: a failed call loses its bulk (payload, arguments) when no visible obligation string or referenced id is in it; tool, error type, the tool\'s own message and fields stay; abstains when nothing but a synthesized message was recorded' }),
    single(cs, { ...gated, description: 'rung 2: an older observation whose scope a newer successful observation demonstrably contains, every recorded transition between them succeeded for that source' }),
    single(vc, { ...gated, description: 'rung 3: trace of a closed work unit whose consequence record (an item in context, or a pointer resolving at the prune point with its recorded hash) holds every consequence string; a unit closed unresolved is not closure' }),
    single(psAlone, { gate: false, upperRisk: true, description: `rung 4, upper-risk: ${predictionText}; no gate (pinned and protected items are never shown to the predictor)` }),
    sameToolArgsDedup(),
    dcpPurgeErrors(),
    observationMasking(),
    oldestFirst(),
    regenerabilityGuard(withPredictor),
    ladder({ name: 'ladder-0', rules: [er], description: 'gate, then exact redundancy' }),
    ladder({ name: 'ladder-0-1', rules: [er, si], description: 'gate, then exact redundancy and source identity, cumulatively' }),
    ladder({
      name: 'ladder-0-2',
      rules: [er, si, eir, cs],
      description: 'gate, then rungs 0-2 cumulatively: exact redundancy, source identity, errored-input residue, checked supersession',
    }),
    ladder03,
    ladder({
      name: 'ladder-0-4',
      rules: [er, si, eir, cs, vc],
      predictor: { mode: 'apply', mechanism: ps },
      description: 'gate, then rungs 0-3 cumulatively and the predictor as the last rule (upper-risk)',
    }),
    ...TIMED.map((timing) => timed(ladder03, timing)),
    ...sweepVariants(),
  ];
}

const CONDITIONS = build();

/** Every condition, the predictor consumers built with `injected` (a model-backed predictor), in registry order. */
export function conditionsWith(injected: InjectedPredictor): Condition[] {
  return [...build(injected)];
}

/** A fresh array each call, so a caller reordering or filtering it cannot disturb the registry. */
export function allConditions(): Condition[] {
  return [...CONDITIONS];
}

export function conditionNames(): string[] {
  return CONDITIONS.map((condition) => condition.name);
}

/** The named condition, or undefined for a name the registry does not know (the CLI reports a usage error). */
export function getCondition(name: string): Condition | undefined {
  return CONDITIONS.find((condition) => condition.name === name);
}
