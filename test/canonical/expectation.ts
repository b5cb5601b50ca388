// The decisions that matter on a canonical fixture, pinned by the fixture's author from its design (what each
// mechanism should do there and why), checked against a real run of every named condition.
export type DecisionName = 'KEEP' | 'PRUNE' | 'DEFER' | 'ABSTAIN';

export interface PinnedDecision {
  condition: string;
  prunePoint: string;
  item: string;
  decision: DecisionName;
  /** For PRUNE: how the oracle scores the removal. */
  outcome?: 'true-prune' | 'false-prune';
  /** Why this decision matters, in a sentence. */
  why: string;
}

export interface PinnedObligation {
  condition: string;
  prunePoint: string;
  obligation: string;
  preserved: boolean;
  why: string;
}

export interface FixtureExpectations {
  fixture: string;
  decisions: PinnedDecision[];
  obligations?: PinnedObligation[];
  /** Re-fetch alerts expected for a condition at a prune point (count). */
  refetchAlerts?: { condition: string; prunePoint: string; count: number; why: string }[];
}
