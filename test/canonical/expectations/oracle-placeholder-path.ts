import type { FixtureExpectations } from '../expectation.js';

// Issue 17, item 3: the PR needs the path of the limits file. The calls carry it, and so does the marker a removed
// read leaves (its source): placeholder text counts toward a string need, never toward an item need.
const expectations: FixtureExpectations = {
  fixture: 'oracle-placeholder-path',
  decisions: [
    { condition: 'raw', prunePoint: 'p1', item: 'i04', decision: 'KEEP', why: 'raw removes nothing.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Rung 0: the same call and bytes as the later read, which stays (a spare copy in the group).',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'ABSTAIN',
      why: 'Only prediction supports removing the later call; rungs 0-3 do not act on it.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Both calls go (i03 first, a spare copy; i06 the last): the oracle labels what the bytes hold, so the second is a false prune.',
    },
  ],
  obligations: [
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-path',
      preserved: true,
      why: 'Both calls stay, and the marker for i04 names the path too.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-path',
      preserved: true,
      why: 'Both calls went, but the marker left for the removed read names its source, services/billing/src/limits.ts: placeholder text meets the string need.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      obligation: 'd-path',
      preserved: false,
      why: 'Both calls went and no read was removed, so no marker names the path: lost.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-current',
      preserved: true,
      why: 'The later read still holds the current limits.',
    },
  ],
};

export default expectations;
