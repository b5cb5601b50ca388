// The prune point's subgoal, from what a runtime knows there: the task goal and the visible state (pending steps,
// open work units). It must never come from the hidden next need: a subgoal that named the family whose items are
// needed next would hand a lexical predictor the oracle's answer.
import type { VisibleState } from '../fixture/schema.js';

type Visible = Pick<VisibleState, 'pendingSteps' | 'workUnits'>;

/** The first pending step, else the first open work unit, else the task goal. */
export function subgoalFrom(goal: string, visible: Visible): string {
  const step = visible.pendingSteps[0];
  if (step) return step.description;
  const open = visible.workUnits.find((w) => w.state === 'open');
  if (open) return open.description;
  return goal;
}
