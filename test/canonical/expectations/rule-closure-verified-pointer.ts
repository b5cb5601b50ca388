import type { FixtureExpectations } from '../expectation.js';

// Closure the rule must still remove (a pointer that resolves with its hash and holds the strings) and an unresolved
// closure it must refuse.
const expectations: FixtureExpectations = {
  fixture: 'rule-closure-verified-pointer',
  decisions: [
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'PAY-311 is closed and its note resolves at p1 with the recorded hash and holds ROUND_HALF_EVEN and payouts/rounding.py: its grep output may go.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i15',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The note write is trace too: the durable note holds what it said, and its pointer recovers it when PAY-320 needs it.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The read of the old rounding code is finished work whose consequence is in the note.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i20',
      decision: 'ABSTAIN',
      why: 'PAY-317 closed unresolved (the spike was abandoned): its trace is not completed work, and the provider docs are the only record of why.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "The ladder's closure rung removes the verified trace.",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i20',
      decision: 'ABSTAIN',
      why: 'In the ladder too, an unresolved closure removes nothing.',
    },
  ],
  obligations: [
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      obligation: 'd-rounding',
      preserved: true,
      why: "The rounding mode and file come back through the note's pointer, which still resolves when PAY-320 needs it.",
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      obligation: 'd-spike-why',
      preserved: true,
      why: "The abandoned spike's docs read stays.",
    },
  ],
};

export default expectations;
