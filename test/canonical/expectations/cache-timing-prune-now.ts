import type { FixtureExpectations } from '../expectation.js';

// Issue 15: a removal whose cheapest timing is now, though the cache is warm (test/economics/timing.test.ts compares
// the timings' bills). Under immediate timing, exact redundancy removes the older suite log at both points.
const expectations: FixtureExpectations = {
  fixture: 'cache-timing-prune-now',
  decisions: [
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The rerun printed byte-identical output for the same call: the older log is a copy.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'r02',
      decision: 'KEEP',
      why: 'The latest copy holds the KeyError the fix needs and stays.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p2',
      item: 'r01',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'At the task boundary the copy is still there and still a copy.',
    },
  ],
};
export default expectations;
