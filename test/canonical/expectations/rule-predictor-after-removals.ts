import type { FixtureExpectations } from '../expectation.js';

// Issue 10, rule 7, after earlier removals: once a ladder's rung 3 has removed the user's constraint (its closed
// unit's trace), the drill note is the constraint's last record, so the gate refuses it and the ladder never shows it
// to the predictor. The predictor is still asked about everything else open.
const expectations: FixtureExpectations = {
  fixture: 'rule-predictor-after-removals',
  decisions: [
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "The constraint is in the closed unit's trace, and the drill note still holds its text, so the gate lets it go.",
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The same removal at rung 3 inside the ladder.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'KEEP',
      why: 'The drill note is now the last record of the constraint: kept for that removal, never shown to the predictor, which would call it unneeded.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'KEEP',
      why: 'Kept for the same reason, not ABSTAIN on a prediction it was never asked for.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The other side: the paging doc is still shown, predicted unneeded and removed at rung 4.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'ABSTAIN',
      why: 'Only prediction supports removing the paging doc.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'PRUNE',
      why: 'The ungated ablation is shown the drill note and removes it with the constraint itself.',
    },
  ],
  obligations: [
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      obligation: 'd-rule',
      preserved: false,
      why: 'Both records of the constraint are gone before the drill.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-rule',
      preserved: true,
      why: 'The drill note stays.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-rule',
      preserved: true,
      why: 'The drill note stays.',
    },
  ],
};

export default expectations;
