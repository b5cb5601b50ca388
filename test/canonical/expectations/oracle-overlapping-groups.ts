import type { FixtureExpectations } from '../expectation.js';

// Issue 17, item 3: the env file read (i04) holds the host and the pool size; i06 holds the host again, i08 the
// pool size again. Two redundant groups overlap on i04: removing it counts against both.
const expectations: FixtureExpectations = {
  fixture: 'oracle-overlapping-groups',
  decisions: [
    { condition: 'raw', prunePoint: 'p1', item: 'i04', decision: 'KEEP', why: 'raw removes nothing.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'ABSTAIN',
      why: 'No copy, source, coverage or closed unit supports removing the env read; only the predictor would, and rungs 0-3 do not act on prediction.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'ABSTAIN',
      why: 'The same for the printenv output.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The predictor removes the env read first: both groups can spare it while i06 and i08 stay.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'After i04 the host group has no spare: the overlap made i06 the last copy of the host.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i08',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Likewise the pool-size group: i04 was counted against it too.',
    },
    {
      condition: 'observation-masking@2',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Alone, the env read is a spare copy of both facts: the printenv output still holds the host, the grep line the pool size.',
    },
    {
      condition: 'observation-masking@1',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Masking the two oldest outputs takes both copies of the host: the second to go is one the group cannot spare.',
    },
  ],
  obligations: [
    { condition: 'ladder-0-3', prunePoint: 'p1', obligation: 'd-host', preserved: true, why: 'Nothing was removed.' },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-host',
      preserved: false,
      why: 'Both holders of the host went.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-pool',
      preserved: false,
      why: 'Both holders of the pool size went.',
    },
    {
      condition: 'observation-masking@2',
      prunePoint: 'p1',
      obligation: 'd-host',
      preserved: true,
      why: 'The printenv output still holds the host.',
    },
    {
      condition: 'observation-masking@1',
      prunePoint: 'p1',
      obligation: 'd-host',
      preserved: false,
      why: 'Both holders of the host were masked.',
    },
  ],
};

export default expectations;
