// Every built-in condition, in the one stable order reports and the CLI use. Each condition declares itself in its
// own file (its `definition`, see definition.ts); this module only lists them and computes what follows from the
// list: the built conditions (bases in list order, then each base's timing variants, then each base's sweep
// variants), the predictor's consumers and their scopes, the sweeps and the baseline. Conditions are built once with
// their default parameters; all are pure, so sharing the instances is safe.
import {
  definition as anthropicClearToolUses,
  scaledDefinition as anthropicClearToolUsesScaled,
} from './comparators/anthropic-clear-tool-uses.js';
import { definition as claudeCodeMicrocompact } from './comparators/claude-code-microcompact.js';
import { definition as dcpPurgeErrors } from './comparators/dcp-purge-errors.js';
import { definition as langchainTrimMessages } from './comparators/langchain-trim-messages.js';
import { definition as observationMasking } from './comparators/observation-masking.js';
import { definition as oldestFirst } from './comparators/oldest-first.js';
import { definition as opencodePrune, scaledDefinition as opencodePruneScaled } from './comparators/opencode-prune.js';
import { definition as openhandsMasking } from './comparators/openhands-observation-masking.js';
import { definition as pkgAiPruneMessages } from './comparators/pkg-ai-prune-messages.js';
import { definition as pkgLangchainTrimMessages } from './comparators/pkg-langchain-trim-messages.js';
import { definition as regenerabilityGuard } from './comparators/regenerability-guard.js';
import { definition as sameToolArgsDedup } from './comparators/same-tool-args-dedup.js';
import { definition as idOnly } from './controls/id-only.js';
import { definition as positionOnly } from './controls/position-only.js';
import { definition as pruneAll } from './controls/prune-all.js';
import { type BuildContext, type ConditionDefinition, type InjectedPredictor, sweepName } from './definition.js';
import { definition as ladder0 } from './ladders/ladder-0.js';
import { definition as ladder01 } from './ladders/ladder-0-1.js';
import { definition as ladder02 } from './ladders/ladder-0-2.js';
import { definition as ladder03 } from './ladders/ladder-0-3.js';
import { definition as ladder04 } from './ladders/ladder-0-4.js';
import { definition as checkedSupersession } from './mechanisms/checked-supersession.js';
import { definition as erroredInputResidue } from './mechanisms/errored-input-residue.js';
import { definition as exactRedundancy } from './mechanisms/exact-redundancy.js';
import { definition as predictiveSemantic } from './mechanisms/predictive-semantic.js';
import { definition as sourceIdentity } from './mechanisms/source-identity.js';
import { definition as verifiedCompletion } from './mechanisms/verified-completion.js';
import type { PredictorScope } from './predictor.js';
import { definition as raw } from './raw.js';
import { decidingOnce, timed } from './timed.js';
import type { Condition } from './types.js';

export type { InjectedPredictor } from './definition.js';
export { sweepName } from './definition.js';

/** The built-in definitions, in registry order. */
export const DEFINITIONS: readonly ConditionDefinition[] = [
  raw,
  pruneAll,
  idOnly,
  positionOnly,
  exactRedundancy,
  sourceIdentity,
  erroredInputResidue,
  checkedSupersession,
  verifiedCompletion,
  predictiveSemantic,
  sameToolArgsDedup,
  dcpPurgeErrors,
  observationMasking,
  oldestFirst,
  regenerabilityGuard,
  anthropicClearToolUses,
  anthropicClearToolUsesScaled,
  opencodePrune,
  opencodePruneScaled,
  openhandsMasking,
  claudeCodeMicrocompact,
  langchainTrimMessages,
  pkgAiPruneMessages,
  pkgLangchainTrimMessages,
  ladder0,
  ladder01,
  ladder02,
  ladder03,
  ladder04,
];

/** A condition the registry builds, and the definition it was built from (a variant's is its base's). */
export interface Registered {
  readonly condition: Condition;
  readonly definition: ConditionDefinition;
  readonly variant: 'base' | 'timing' | 'sweep';
}

export interface Registry {
  readonly definitions: readonly ConditionDefinition[];
  /** Every condition, built with `context` (a model-backed predictor for the consumers), in registry order. */
  build(context?: BuildContext): Registered[];
  /** Every condition built with the defaults, in registry order. */
  readonly registered: readonly Registered[];
  /** The conditions that consult the predictor, and so change (and make model calls) when one is injected. */
  readonly predictorConsumers: readonly string[];
  /** Which predictor request a consumer reads; undefined for a condition that makes none. */
  predictorScopeOf(name: string): PredictorScope | undefined;
  /** The one baseline definition's name: what every other condition is compared with as "keeping everything". */
  readonly baseline: string;
  /** The registered condition of that name, or undefined for a name the registry does not know. */
  find(name: string): Registered | undefined;
}

/**
 * A registry over `definitions`: the global one lists the built-ins; a test builds its own with a throwaway
 * definition added, so registering one never disturbs the study.
 */
export function createRegistry(definitions: readonly ConditionDefinition[]): Registry {
  const names = new Set<string>();
  for (const d of definitions) {
    if (names.has(d.name)) throw new Error(`internal: two condition definitions are named "${d.name}"`);
    names.add(d.name);
  }
  const baselines = definitions.filter((d) => d.layer === 'baseline');
  if (baselines.length !== 1)
    throw new Error(`internal: a registry needs exactly one baseline definition, got ${String(baselines.length)}`);
  const build = (context: BuildContext = {}): Registered[] => {
    const bases = definitions.map((definition) => {
      const built = definition.build(context);
      // A base with timing variants decides each view once for itself and all of them.
      const condition = (definition.timings ?? []).length > 0 ? decidingOnce(built) : built;
      return { definition, condition, variant: 'base' as const };
    });
    const timings = bases.flatMap(({ definition, condition }) =>
      (definition.timings ?? []).map((timing) => ({
        definition,
        condition: timed(condition, timing),
        variant: 'timing' as const,
      })),
    );
    const sweeps = definitions.flatMap((definition) => {
      const sweep = definition.sweep;
      if (!sweep) return [];
      return sweep.values.map((value) => ({
        definition,
        condition: sweep.variant(value, {
          name: sweepName(definition.name, value),
          sweepOf: { condition: definition.name, parameter: sweep.parameter, value },
        }),
        variant: 'sweep' as const,
      }));
    });
    return [...bases, ...timings, ...sweeps];
  };
  const registered = build();
  // A timing variant asks what its base asks; a sweep variant keeps the embedded predictor whatever is injected.
  const scopes = new Map<string, PredictorScope>();
  for (const r of registered) {
    const scope = r.definition.consumes?.predictor;
    if (scope !== undefined && r.variant !== 'sweep') scopes.set(r.condition.name, scope);
  }
  return {
    definitions,
    build,
    registered,
    predictorConsumers: [...scopes.keys()],
    predictorScopeOf: (name) => scopes.get(name),
    baseline: baselines[0]!.name,
    find: (name) => registered.find((r) => r.condition.name === name),
  };
}

const REGISTRY = createRegistry(DEFINITIONS);

export function builtInRegistry(): Registry {
  return REGISTRY;
}

/** The conditions that consult the predictor, and so change (and make model calls) when one is injected. */
export const PREDICTOR_CONSUMERS: readonly string[] = REGISTRY.predictorConsumers;

/**
 * Which predictor request a consumer reads: the ungated Layer A ablation its own (it may show the classifier the
 * refusal-case items), every gated consumer the one that withholds them. Undefined for a condition that makes none.
 */
export function predictorScopeOf(condition: string): PredictorScope | undefined {
  return REGISTRY.predictorScopeOf(condition);
}

/** The parameter sweeps, read from the definitions that declare one. */
export const SWEEPS: Readonly<
  Record<
    string,
    { readonly parameter: string; readonly base: number | string | boolean; readonly values: readonly number[] }
  >
> = Object.fromEntries(
  DEFINITIONS.flatMap((d) =>
    d.sweep
      ? [[d.name, { parameter: d.sweep.parameter, base: d.parameters[d.sweep.parameter]!, values: d.sweep.values }]]
      : [],
  ),
);

/** Every condition, the predictor consumers built with `injected` (a model-backed predictor), in registry order. */
export function conditionsWith(injected: InjectedPredictor): Condition[] {
  return REGISTRY.build({ predictor: injected }).map((r) => r.condition);
}

/** A fresh array each call, so a caller reordering or filtering it cannot disturb the registry. */
export function allConditions(): Condition[] {
  return REGISTRY.registered.map((r) => r.condition);
}

export function conditionNames(): string[] {
  return REGISTRY.registered.map((r) => r.condition.name);
}

/** The named condition, or undefined for a name the registry does not know (the CLI reports a usage error). */
export function getCondition(name: string): Condition | undefined {
  return REGISTRY.find(name)?.condition;
}
