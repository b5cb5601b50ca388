import type { FixtureExpectations } from '../expectation.js';

// Issue 15: a removal whose cheapest timing is to wait for the cached prefix to expire (test/economics/timing.test.ts
// compares the timings' bills). Under immediate timing, exact redundancy removes the older copy at both points.
const expectations: FixtureExpectations = {
  fixture: 'cache-timing-defer',
  decisions: [
    {
      condition: 'exact-redundancy', prunePoint: 'p1', item: 'r01', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The two git log outputs are the same call with identical output; the older copy may go, the latest stays.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'p1', item: 'r03', decision: 'KEEP',
      why: 'One copy of the commit list the pull request cites must stay: the latest.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'p2', item: 'r01', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Prune points are independent: the copy is found again at p2.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'p1', item: 'r02', decision: 'KEEP',
      why: 'The invoice.py read has no copy: nothing at rung 0 touches it.',
    },
  ],
};
export default expectations;
