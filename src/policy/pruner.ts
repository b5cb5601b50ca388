// A condition whose decisions are what a message-array pruner did: the prune point is rendered in the pruner's
// format, the pruner runs, and its output is mapped back to one eligibility per item (src/pruners/map-back.ts).
// Used by the conditions that run real npm packages and by a user's --pruner module; both are comparators: they
// reproduce a framework's behaviour, consult no obligation and stand on no rung.
import type { PolicyView } from '../fixture/view.js';
import { FORMATS } from '../pruners/formats.js';
import { type Mapped, mapBack } from '../pruners/map-back.js';
import type { PrunerFormat, Rendered } from '../pruners/types.js';
import { type ConditionDefinition, defineCondition } from './definition.js';
import { comparatorVerdict } from './eligibility.js';
import type { Condition, Eligibility } from './types.js';

export interface PrunerSpec {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly reference: string;
  readonly parameters: Readonly<Record<string, number | string | boolean>>;
  readonly format: PrunerFormat;
  /** What the pruner returned for the rendered prune point (unchecked: mapping back checks it). */
  prune(rendered: Rendered, view: PolicyView): unknown;
}

export function prunerCondition(spec: PrunerSpec): Condition {
  const format = FORMATS[spec.format];
  return {
    name: spec.name,
    layer: 'comparator',
    rung: null,
    version: spec.version,
    description: spec.description,
    upperRisk: false,
    consultsObligations: false,
    parameters: { ...spec.parameters, format: spec.format },
    reference: spec.reference,
    decide(view) {
      const rendered = format.render(view);
      const output = spec.prune(rendered, view);
      const where = { condition: spec.name, fixture: view.fixtureId, point: view.prunePoint.id };
      return eligibilitiesOf(view, mapBack(rendered, output, format, where), spec.name, spec.format);
    },
  };
}

/** The definition of a built-in condition that runs a published pruner: everything it declares is the spec's. */
export function definePruner(spec: PrunerSpec & { readonly shadows?: string }): ConditionDefinition {
  const { shadows, ...pruner } = spec;
  const { decide: _built, ...declared } = prunerCondition(pruner);
  return defineCondition({
    ...declared,
    parameters: { ...declared.parameters },
    ...(shadows !== undefined ? { shadows } : {}),
    build: () => prunerCondition(pruner),
  });
}

/** One eligibility per item of the view, in order, from what the pruner did to it. */
export function eligibilitiesOf(view: PolicyView, mapped: Mapped, rule: string, format: PrunerFormat): Eligibility[] {
  const verdict = comparatorVerdict(rule);
  return view.items.map((item) => {
    const fate = mapped.fates.get(item.id);
    if (!fate) throw new Error(`internal: item ${item.id} was not rendered for ${rule}`);
    const notes = mapped.structure.get(item.id);
    const also = notes ? `; ${notes.join('; ')}` : '';
    switch (fate.kind) {
      case 'kept':
        return verdict(item.id, 'keep', `the pruner returned it unchanged (message ${fate.message})${also}`);
      case 'beside':
        return verdict(
          item.id,
          'keep',
          `not in the array the pruner was given (${format} passes system text beside it)`,
        );
      case 'removed':
        return verdict(item.id, 'eligible', `absent from what the pruner returned${also}`);
      case 'replaced':
        return verdict(
          item.id,
          'eligible',
          `the pruner left a placeholder in its slot (message ${fate.message})${also}`,
          fate.text,
        );
      case 'truncated':
        return verdict(
          item.id,
          'eligible',
          `the pruner cut it short, keeping ${fate.kept} characters of its ends (message ${fate.message})${also}`,
          fate.text,
        );
    }
  });
}
