import type { FixtureExpectations } from '../expectation.js';

// Ladders 2.3.0: what an earlier step's removal rests on leaves the candidates. Rung 0 removes the first config read
// because its identical copy stays; rung 3 would remove that copy with its closed unit's trace, so inside a ladder
// the copy is kept for the first removal, while the rest of the trace still goes.
const expectations: FixtureExpectations = {
  fixture: 'rule-ladder-reliance',
  decisions: [
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The first read is an identical copy of the second, which stays.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i08',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "Alone, rung 3 removes the second read with its closed unit's trace: safe, since the first read stays.",
    },
    ...(['ladder-0-3', 'ladder-0-4'] as const).flatMap((condition) => [
      {
        condition,
        prunePoint: 'p1',
        item: 'i04',
        decision: 'PRUNE' as const,
        outcome: 'true-prune' as const,
        why: 'Rung 0 removes the first read, resting on the second.',
      },
      {
        condition,
        prunePoint: 'p1',
        item: 'i08',
        decision: 'KEEP' as const,
        why: "The second read is what the first read's removal rests on: no later rule takes it, and it is not ABSTAIN.",
      },
      {
        condition,
        prunePoint: 'p1',
        item: 'i06',
        decision: 'PRUNE' as const,
        outcome: 'true-prune' as const,
        why: "The other side: the rest of the closed unit's trace still goes at rung 3.",
      },
    ]),
  ],
  obligations: [
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-config',
      preserved: true,
      why: 'One copy of the config text stays for the edit.',
    },
  ],
};

export default expectations;
