import type { FixtureExpectations } from '../expectation.js';

// Rung 1 is source identity + version + view, with a version that says what it hashes.
const expectations: FixtureExpectations = {
  fixture: 'rule-rung1-views-and-versions',
  decisions: [
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i03',
      decision: 'KEEP',
      why: 'Lines 1-60 and lines 61-140 of one content hash are different views: not interchangeable.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'KEEP',
      why: 'No later read shows the same range.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i07',
      decision: 'KEEP',
      why: 'A truncated whole read is its own view; no later read has that view.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'ABSTAIN',
      why: 'Both config reads carry commit 4f2a9d1, which pins the committed tree, not the mutable working tree the user changed.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i14',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Same view of the test file at the same content hash as i21, which stays.',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i16',
      decision: 'ABSTAIN',
      why: 'git show of an immutable source at one commit, same tool and view as i23, but i23 shows other bytes (a trailing newline): a commit of an immutable source hashes nothing read, so rung 1 pairs its reads only on the same bytes (was PRUNE: git show of an immutable source at one commit, same tool and view as i23, which stays.)',
    },
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      item: 'i18',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'agent-writes 0 on both reads and no recorded write between: eligible, with the weaker guarantee stated.',
    },
    {
      condition: 'exact-redundancy',
      prunePoint: 'p1',
      item: 'i16',
      decision: 'KEEP',
      why: 'The two git show calls differ in arguments and bytes (a trailing newline), so rung 0 cannot see them as copies.',
    },
    {
      condition: 'ladder-0-1',
      prunePoint: 'p1',
      item: 'i16',
      decision: 'ABSTAIN',
      why: 'Rung 1 pairs reads of one immutable state only on the same bytes, in the ladder as alone; i23 adds a trailing newline (was PRUNE: Rung 1 removes what rung 0 cannot: the same view of one immutable state.)',
    },
    {
      condition: 'ladder-0-1',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'ABSTAIN',
      why: 'The commit sha does not establish the working-tree state, in the ladder as alone.',
    },
    {
      condition: 'same-tool-args-dedup',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Same read_file arguments as the later read: dedup drops the committed max_conns: 20 the PR needs.',
    },
  ],
  obligations: [
    {
      condition: 'source-identity',
      prunePoint: 'p1',
      obligation: 'd-config-history',
      preserved: true,
      why: 'Rung 1 abstains on the commit-pinned working-tree reads, so both values stay.',
    },
  ],
};

export default expectations;
