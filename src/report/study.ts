// What a study adds to the generic report: the machine forms of its preregistration's criteria and outcome rows,
// its descriptive secondary comparisons, and the condition its comparator table shows for reference. A study
// defines one (experiments/<study>/study.ts); src/ never names a study's conditions itself, and reaches a study's
// definition only through the CLI's one loading seam (src/cli/study.ts).
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

/** Secondary comparisons derived from registered conditions' layers and rungs, so a new mechanism joins them. */
export function secondaryFromRegistry(
  conditions: readonly { name: string; layer: string; rung: number | null; upperRisk: boolean; sweepOf?: unknown }[],
  proposed: string,
): SecondaryComparison[] {
  const base = conditions.filter((c) => c.sweepOf === undefined && !c.name.includes('~'));
  const layerA = base.filter((c) => c.layer === 'A').map((c) => c.name);
  // One ladder per rung, the first registered: a timing variant of a ladder shares its base's rung.
  const ladder: string[] = [];
  const rungs = new Set<number | null>();
  for (const c of base.filter((x) => x.layer === 'B')) {
    if (rungs.has(c.rung)) continue;
    rungs.add(c.rung);
    ladder.push(c.name);
  }
  const predictors = base.filter((c) => c.layer === 'A' && c.upperRisk).map((c) => c.name);
  const comparators = base.filter((c) => c.layer === 'comparator').map((c) => c.name);
  const control = base.find((c) => c.layer === 'control' && c.name === 'raw')?.name ?? 'raw';
  return [
    ...layerA.map((c) => ({ id: `${c}-vs-${control}`, candidate: c, reference: control, question: `what ${c} alone changes against keeping everything` })),
    ...ladder.slice(1).map((c, i) => ({
      id: `${c}-vs-${ladder[i]!}`, candidate: c, reference: ladder[i]!, question: `the marginal effect of the rung ${c} adds to ${ladder[i]!}`,
    })),
    ...predictors.map((c) => ({ id: `${c}-vs-${proposed}`, candidate: c, reference: proposed, question: 'prediction alone against the conservative ladder' })),
    ...comparators.map((c) => ({ id: `${c}-vs-${proposed}`, candidate: c, reference: proposed, question: `the published ${c} against the conservative ladder` })),
  ];
}
