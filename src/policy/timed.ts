// Timing variants: a base condition run with a timing of its own, so that DEFER is exercised inside the study rather
// than only by a run-level --timing. The variant decides exactly what its base decides (same eligibility, same
// version); only when an eligible removal is applied changes, and the engine records each DEFER with its reason.
import { frozenMemo } from '../fixture/memo.js';
import type { PolicyView } from '../fixture/view.js';
import { timingLabel, type Timing } from '../timing/timing.js';
import type { Condition } from './types.js';

/**
 * `<base>~<timing>`, the timing's `:` written `-`: a condition's name is also its results folder, and a colon is not
 * allowed in a Windows path. `@` is taken by parameter sweeps.
 */
export function timedName(base: string, timing: Timing): string {
  return `${base}~${timingLabel(timing).replace(/:/g, '-')}`;
}

const WHEN: Record<Timing['kind'], (t: Timing) => string> = {
  immediate: () => 'applied as soon as eligible',
  pressure: (t) =>
    `applied only when the context is above ${String((t as Extract<Timing, { kind: 'pressure' }>).threshold * 100)}% of the prune point's budget, else DEFER`,
  'task-boundary': () => 'applied only at task boundaries, else DEFER',
  'cache-safe': (t) =>
    `deferred while the ${(t as Extract<Timing, { kind: 'cache-safe' }>).profile} prompt cache is warm, applied once it has expired, at a task boundary or below the cacheable minimum`,
};

export function timed(base: Condition, timing: Timing): Condition {
  return {
    ...base,
    name: timedName(base.name, timing),
    description: `${base.description}; timing ${timingLabel(timing)}: eligible removals ${WHEN[timing.kind](timing)}`,
    parameters: { ...base.parameters, timing: timingLabel(timing) },
    timing,
    decide: (view) => base.decide(view),
  };
}

/**
 * The base condition deciding each (frozen) view once, however many of its timing variants ask the same view: a
 * variant decides exactly what its base decides, and a condition is a pure function of its view. The shared list is
 * frozen, so no caller can change what another is given; an unfrozen view is decided afresh (memo.ts).
 */
export function decidingOnce(base: Condition): Condition {
  const decided = frozenMemo((view: PolicyView) => Object.freeze(base.decide(view)));
  return { ...base, decide: decided };
}
