// Timing is a separate decision from eligibility: an eligible removal is applied now (PRUNE) or postponed (DEFER).
import { usage } from '../errors.js';
import type { PolicyView } from '../fixture/view.js';

export type Timing =
  | { readonly kind: 'immediate' }
  | { readonly kind: 'pressure'; readonly threshold: number }
  | { readonly kind: 'task-boundary' };

export const TIMING_CHOICES = 'immediate, pressure:<share of budget in (0,1]>, task-boundary';

export function parseTiming(text: string): Timing {
  if (text === 'immediate' || text === 'task-boundary') return { kind: text };
  const match = /^pressure:(\d*\.?\d+)$/.exec(text);
  const threshold = match ? Number(match[1]) : NaN;
  if (match && threshold > 0 && threshold <= 1) return { kind: 'pressure', threshold };
  throw usage('PL_USAGE_BAD_VALUE', '--timing', text, TIMING_CHOICES);
}

/** Whether a value from outside (a --policy module's declared timing) is a Timing this module can decide with. */
export function isTiming(value: unknown): value is Timing {
  if (!value || typeof value !== 'object') return false;
  const t = value as { kind?: unknown; threshold?: unknown };
  if (t.kind === 'immediate' || t.kind === 'task-boundary') return Object.keys(t).length === 1;
  return t.kind === 'pressure' && typeof t.threshold === 'number' && t.threshold > 0 && t.threshold <= 1 && Object.keys(t).length === 2;
}

export function timingLabel(timing: Timing): string {
  return timing.kind === 'pressure' ? `pressure:${timing.threshold}` : timing.kind;
}

export interface TimingVerdict {
  readonly applyNow: boolean;
  readonly reason: string;
}

/** Whether eligible removals at this prune point are applied now; the same verdict holds for all its candidates. */
export function decideTiming(timing: Timing, view: PolicyView): TimingVerdict {
  const { budgetTokens, taskBoundary } = view.prunePoint;
  switch (timing.kind) {
    case 'immediate':
      return { applyNow: true, reason: 'applied as soon as eligible' };
    case 'pressure': {
      const share = view.contextTokens / budgetTokens;
      const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
      return share > timing.threshold
        ? { applyNow: true, reason: `context at ${pct(share)} of budget, above ${pct(timing.threshold)}` }
        : { applyNow: false, reason: `context at ${pct(share)} of budget, not above ${pct(timing.threshold)}: postponed` };
    }
    case 'task-boundary':
      return taskBoundary
        ? { applyNow: true, reason: 'prune point is a task boundary' }
        : { applyNow: false, reason: 'not a task boundary: postponed to the next one' };
  }
}
