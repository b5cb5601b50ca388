import type { FixtureExpectations } from '../expectation.js';

// Issue 15: a removal whose cheapest timing is to wait for the cached prefix to expire (test/economics/timing.test.ts
// compares the timings' bills). Under immediate timing, exact redundancy removes the older copy at both points.
const expectations: FixtureExpectations = {
  fixture: 'cache-timing-defer',
  decisions: [
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The two git log outputs are the same call with identical output; the older copy may go, the latest stays.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'r03',
      decision: 'KEEP',
      why: 'One copy of the commit list the pull request cites must stay: the latest.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p2',
      item: 'r01',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Prune points are independent: the copy is found again at p2.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'r02',
      decision: 'KEEP',
      why: 'The invoice.py read has no copy: nothing at rung 0 touches it.',
    },
    {
      condition: 'ladder-0-3~cache-safe',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'DEFER',
      why: 'Eligible at rung 0, but p1 comes 10 s after the previous request, inside the 5-minute cache: the removal waits.',
    },
    {
      condition: 'ladder-0-3~cache-safe',
      prunePoint: 'p2',
      item: 'r01',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'p2 comes over half an hour after the previous request: the cached prefix has expired, so the removal costs no cache.',
    },
    {
      condition: 'ladder-0-3~task-boundary',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'DEFER',
      why: 'The same eligible copy, but no prune point of this fixture is a task boundary: the removal is postponed.',
    },
    {
      condition: 'ladder-0-3~pressure-0.8',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'DEFER',
      why: 'The context is about 5% of its 32,000-token budget, far below 80%: no pressure, so the removal is postponed.',
    },
    {
      condition: 'prune-all',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The control removes every candidate; this one happens to be a spare copy.',
    },
    {
      condition: 'prune-all',
      prunePoint: 'p1',
      item: 'r02',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'The control removes every candidate, including the only read of invoice.py that later work needs.',
    },
    {
      condition: 'id-only',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'KEEP',
      why: 'The id-only table was trained on a corpus whose ids are opaque: no id token reaches the 0.99 removable rate it needs.',
    },
    {
      condition: 'position-only',
      prunePoint: 'p1',
      item: 'r01',
      decision: 'KEEP',
      why: 'No position and age bin of the training corpus is removable at the 0.99 rate the control needs.',
    },
  ],
};
export default expectations;
