import type { FixtureExpectations } from '../expectation.js';

// Issue 10, rule 6, the other side: the gate lets a refusal case go when an identical copy of the same observation
// stays, lets pure output go, and lets a user constraint go when another record holds it.
const expectations: FixtureExpectations = {
  fixture: 'rule-gate-letthrough',
  decisions: [
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i15',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The same push answered "Everything up-to-date" twice: a non-idempotent output, but its identical copy i17 stays.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i17',
      decision: 'KEEP',
      why: 'The latest copy is the one that stays.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i19',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The green CI run read twice with identical bytes: transient state, but the identical copy i21 stays.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i19',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Same etag and an identical copy staying: rung 1 removes it too.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'go.mod shown by a pure tool at a pinned commit: no refusal case.',
    },
    {
      condition: 'ladder-0',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The pure read goes at rung 0 in the ladder.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The go-directive rule in the closed unit is not the sole record: the user restated it word for word (i24), which stays.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'ABSTAIN',
      why: 'The patch output has no copy: still refused.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'ABSTAIN',
      why: "main's CI read is transient state with no copy: refused.",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The restated constraint goes inside the conservative ladder too.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i15',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Rung 0 removes the earlier push answer before the predictor runs.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'p1',
      item: 'i15',
      decision: 'ABSTAIN',
      why: 'Each push answer alone has its copy in context, so both are shown and both proposed; removing both leaves no copy, so the gate refuses the latest and the guard refuses the whole prune.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      item: 'i24',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'The ungated ablation removes the restated rule, the only record left once both statements go.',
    },
  ],
  obligations: [
    { condition: 'ladder-0-3', prunePoint: 'p1', obligation: 'd-go', preserved: true, why: 'The restatement stays.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-ci',
      preserved: true,
      why: 'One copy of the green run stays.',
    },
  ],
};

export default expectations;
