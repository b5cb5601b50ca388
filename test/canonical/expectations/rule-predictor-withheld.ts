import type { FixtureExpectations } from '../expectation.js';

// Issue 10, rule 7: the embedded predictor is never shown pinned, protected or (for the gated consumers) gated
// items, so it can propose only what a runtime would let it see.
const expectations: FixtureExpectations = {
  fixture: 'rule-predictor-withheld',
  decisions: [
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'KEEP',
      why: 'The pinned preference shares no word with the subgoal, but it is never shown to the predictor.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i11',
      decision: 'KEEP',
      why: 'The Celery config excerpt a pending step references is protected, so never shown.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'KEEP',
      why: 'The ps listing is transient state: the gated predictor is never shown it.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The other side: the deploy notes are shown, predicted unneeded, and removed at rung 4.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'ABSTAIN',
      why: 'Only prediction supports removing the deploy notes.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'KEEP',
      why: 'Never shown to the predictor, and no evidence rule applies.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The guard proposes only what it was shown; nothing refused among the proposals.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'p1',
      item: 'i01',
      decision: 'KEEP',
      why: 'The pinned system prompt is never shown to the predictor.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'KEEP',
      why: 'Even the ungated ablation is never shown what the runtime pinned.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      item: 'i11',
      decision: 'KEEP',
      why: 'Nor what a pending step protects.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'It is shown the transient ps listing (it has no regenerability gate) and removes the only memory measurement.',
    },
  ],
  obligations: [
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      obligation: 'd-rss',
      preserved: false,
      why: 'The ablation loses the RSS measurement.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-rss',
      preserved: true,
      why: 'The gated ladder keeps it.',
    },
  ],
};

export default expectations;
