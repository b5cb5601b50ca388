// What a decision did to an item, as a reader of the viewer sees it: six states, each shown by colour AND by a text
// label and a border style, so a page printed in grey or read by a screen reader still tells them apart.
import type { DecisionRecord } from '../artifacts/schema.js';
import { GATE_RULE } from '../policy/eligibility.js';

export const ITEM_STATES = ['retained', 'protected', 'removed', 'residue', 'deferred', 'abstained'] as const;
export type ItemState = (typeof ITEM_STATES)[number];

/** The label a reader sees on every item, and what the state means (the legend and docs/viewer.md say the same). */
export const STATE_TEXT: Readonly<Record<ItemState, { readonly label: string; readonly meaning: string }>> = {
  retained: { label: 'RETAINED', meaning: 'KEEP: no rule establishes that the item may go; it stays in context' },
  protected: {
    label: 'PROTECTED',
    meaning:
      'KEEP by the protection gate: something declared (a pin, a protected tool, a visible obligation, a pending step) needs it',
  },
  removed: {
    label: 'REMOVED',
    meaning: 'PRUNE, whole: the item left context; its placeholder (if any) is shown instead',
  },
  residue: {
    label: 'RESIDUE',
    meaning: 'PRUNE, bulk only: the named residue fields stay in context behind the placeholder; the rest left',
  },
  deferred: { label: 'DEFERRED', meaning: 'DEFER: eligible for removal, but timing postponed it; it stays for now' },
  abstained: { label: 'ABSTAINED', meaning: 'ABSTAIN: the evidence cannot establish eligibility; it stays' },
};

/**
 * The state a decision record puts its item in. A KEEP by the gate is told apart from a plain KEEP through the rule
 * the record names: the gate's protection, never a guess from the item's kind.
 */
export function stateOf(record: Pick<DecisionRecord, 'decision' | 'rule' | 'removal'>): ItemState {
  switch (record.decision) {
    case 'PRUNE':
      return record.removal === 'residue' ? 'residue' : 'removed';
    case 'DEFER':
      return 'deferred';
    case 'ABSTAIN':
      return 'abstained';
    case 'KEEP':
      return record.rule === GATE_RULE ? 'protected' : 'retained';
  }
}

export type StateCounts = Record<ItemState, number>;

export function countStates(states: Iterable<ItemState>): StateCounts {
  const counts = Object.fromEntries(ITEM_STATES.map((s) => [s, 0])) as StateCounts;
  for (const s of states) counts[s] += 1;
  return counts;
}

/** Whether the item's own payload is still in context: everything but a removal (a residue keeps only fields). */
export function inContext(state: ItemState): boolean {
  return state !== 'removed' && state !== 'residue';
}
