// What a study adds to the generic report: the machine forms of its preregistration's criteria and outcome rows,
// its descriptive secondary comparisons, and the condition its comparator table shows for reference. A study
// defines one (experiments/<study>/study.ts); src/ never names a study's conditions itself, and reaches a study's
// definition only through the CLI's one loading seam (src/cli/study.ts).
import { builtInRegistry, type Registered, type Registry } from '../policy/registry.js';
import type { SecondaryComparison } from './comparisons.js';
import type { CriterionForm, OutcomeForm } from './criteria.js';

export interface StudyDefinition {
  /** The study's folder name under experiments/. */
  readonly name: string;
  readonly criteria: readonly CriterionForm[];
  readonly outcomes: readonly OutcomeForm[];
  readonly secondary: readonly SecondaryComparison[];
  /** The condition the study proposes, shown beside the comparators; null when it proposes none. */
  readonly proposed: string | null;
}

/**
 * Secondary comparisons derived from the registry's definitions, so a new built-in joins them by its layer: each
 * Layer A mechanism and each comparator against the baseline, each ladder rung against the one before, prediction
 * alone and each comparator against the proposed condition. Variants (sweeps, timings) are their base's curve, not comparisons.
 */
export function secondaryFromRegistry(
  registry: Pick<Registry, 'registered' | 'baseline'>,
  proposed: string,
): SecondaryComparison[] {
  const base = registry.registered.filter((r) => r.variant === 'base');
  const named = (keep: (r: Registered) => boolean) => base.filter(keep).map((r) => r.condition.name);
  const layerA = named((r) => r.definition.layer === 'A');
  // One ladder per rung, the first registered.
  const ladder: string[] = [];
  const rungs = new Set<number | null>();
  for (const r of base.filter((x) => x.definition.layer === 'B')) {
    if (rungs.has(r.condition.rung)) continue;
    rungs.add(r.condition.rung);
    ladder.push(r.condition.name);
  }
  const predictors = named((r) => r.definition.layer === 'A' && r.condition.upperRisk);
  const comparators = named((r) => r.definition.layer === 'comparator');
  const control = registry.baseline;
  return [
    ...layerA.map((c) => againstBaseline(c, control, `what ${c} alone changes against keeping everything`)),
    ...ladder.slice(1).map((c, i) => ({
      id: `${c}-vs-${ladder[i]!}`,
      candidate: c,
      reference: ladder[i]!,
      question: `the marginal effect of the rung ${c} adds to ${ladder[i]!}`,
    })),
    ...predictors.map((c) => ({
      id: `${c}-vs-${proposed}`,
      candidate: c,
      reference: proposed,
      question: 'prediction alone against the conservative ladder',
    })),
    ...comparators.flatMap((c) => [
      againstBaseline(c, control, `what the published ${c} changes against keeping everything`),
      {
        id: `${c}-vs-${proposed}`,
        candidate: c,
        reference: proposed,
        question: `the published ${c} against the conservative ladder`,
      },
    ]),
  ];
}

function againstBaseline(candidate: string, baseline: string, question: string): SecondaryComparison {
  return { id: `${candidate}-vs-${baseline}`, candidate, reference: baseline, question };
}

/**
 * What a condition the registry does not know (a --policy module) is compared with, whatever layer it declares:
 * the registry's baseline and the study's proposed condition, the two questions its author asks first.
 */
export function outsiderComparisons(
  names: readonly string[],
  proposed: string | null,
  registry: Pick<Registry, 'find' | 'baseline'> = builtInRegistry(),
): SecondaryComparison[] {
  return names
    .filter((name) => registry.find(name) === undefined)
    .flatMap((c) => [
      againstBaseline(c, registry.baseline, `what ${c} changes against keeping everything`),
      ...(proposed === null
        ? []
        : [
            {
              id: `${c}-vs-${proposed}`,
              candidate: c,
              reference: proposed,
              question: `${c} against the conservative ladder`,
            },
          ]),
    ]);
}
