import type { FixtureExpectations } from '../expectation.js';

// Rung 2 supersedes only on contained scope, a successful newer observation and transitions that each succeeded.
const expectations: FixtureExpectations = {
  fixture: 'rule-rung2-checked-coverage',
  decisions: [
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Lines 10-30 lie inside the later 1-90 re-read, after an edit whose effect on tax.ts succeeded.',
    },
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The rerun covers the same four tests after the succeeded edit of the workspace.',
    },
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'ABSTAIN',
      why: 'Lines 40-46 do not contain 1-80, and the whole re-read was truncated, so containment cannot be checked.',
    },
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      item: 'i21',
      decision: 'ABSTAIN',
      why: 'The edit between the currency runs failed for the workspace: the passing rerun does not rest on a successful transition.',
    },
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      item: 'i27',
      decision: 'KEEP',
      why: 'The only later index run crashed: a failed observation is not a newer version.',
    },
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      item: 'i33',
      decision: 'KEEP',
      why: 'A transient-state observation is never superseded by a re-observation, whatever the restart did.',
    },
    {
      condition: 'ladder-0-2',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Rung 2 removes the contained range in the ladder as alone.',
    },
    {
      condition: 'ladder-0-2',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'ABSTAIN',
      why: 'No earlier rung pairs the discount reads (different views), and rung 2 cannot check containment.',
    },
    {
      condition: 'ladder-0-2',
      prunePoint: 'p1',
      item: 'i27',
      decision: 'KEEP',
      why: 'Nothing in the ladder treats the crash as a newer run.',
    },
    {
      condition: 'same-tool-args-dedup',
      prunePoint: 'p1',
      item: 'i21',
      decision: 'KEEP',
      why: 'DCP leaves errored outputs alone, so the failing currency run stays.',
    },
    {
      condition: 'same-tool-args-dedup',
      prunePoint: 'p1',
      item: 'i33',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Same GET arguments as the 200 re-check: dedup drops the 503 the incident note needs.',
    },
  ],
  obligations: [
    {
      condition: 'checked-supersession',
      prunePoint: 'p1',
      obligation: 'd-flake',
      preserved: true,
      why: 'The failing currency run stays.',
    },
  ],
};

export default expectations;
