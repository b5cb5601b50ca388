import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'dormant-dependency-reopens',
  decisions: [
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'r-explain', decision: 'PRUNE', outcome: 'false-prune',
      why: 'wu-grpc is closed and m-u1 holds both consequence strings, but the unit reopens at turn 15 and only r-explain says pubsub 4.3.3 capped grpc-js at "~1.10.0".',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'r-npmls', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The npm ls tree adds nothing the reopened fix needs beyond what r-explain holds.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'r-test-reports', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-dst is closed with "vi.setSystemTime" in m-u2 and stays closed; its failing run is finished work.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'r-read-monthly', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The test file read belongs to the DST unit, whose consequence is recorded and which never reopens.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'r-read-ci', decision: 'ABSTAIN',
      why: 'wu-cache is closed but declares no consequence, so closure cannot be verified.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'm-u3', decision: 'ABSTAIN',
      why: 'Every trace item of the unverified cache unit abstains, the model\'s note included.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', item: 'm-u1', decision: 'KEEP',
      why: 'The consequence item itself is never released by its own unit.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-node22', item: 'r-explain', decision: 'PRUNE', outcome: 'false-prune',
      why: 'No visible obligation protects the explain output, so the ladder\'s verified-completion rung removes it.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'pp-node22', item: 'r-explain', decision: 'KEEP',
      why: 'Without the closure rung nothing establishes eligibility: it is neither a copy, a failed call nor a superseded run.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-node22', item: 'r-explain', decision: 'PRUNE', outcome: 'false-prune',
      why: 'r-explain is the third of fourteen observations, older than the last ten.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-node22', item: 'r-test-events', decision: 'ABSTAIN',
      why: 'The edit call c-edit-pkg records its effects as bare strings beside another effect, so no outcome is recorded per effect: rung 2 cannot check that the transition succeeded for this source and abstains (was PRUNE: The rerun on Node 20 covers the same three test files after c-edit-pkg changed workspace:relay.)',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-node22', item: 'r-gs1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-gs2 is byte-identical and keeps the modified-file list for the commit.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-reopened', item: 'r-explain', decision: 'KEEP',
      why: 'The runtime now shows wu-grpc as open, so no closure covers its trace.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-reopened', item: 'r-test-reports', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The DST unit is still closed with its consequence in context.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-reopened', item: 'r-explain', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The context is over its 2,600-token budget and the explain output is among the oldest items.',
    },
  ],
  obligations: [
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', obligation: 'ob-reopen', preserved: false,
      why: 'The consequence records what was pinned, not which dependency forced it, and npm explain output has no pointer.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'pp-node22', obligation: 'ob-reopen', preserved: true,
      why: 'The ladder without the closure rung keeps r-explain.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-reopened', obligation: 'ob-reopen', preserved: true,
      why: 'Once the unit is visibly open its trace stays.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'verified-completion', prunePoint: 'pp-node22', count: 0,
      why: 'No later call repeats a removed observation\'s tool and arguments (the follow-up uses npm view and a different package.json patch), so the detector misses this false prune.',
    },
  ],
};

export default expectations;
