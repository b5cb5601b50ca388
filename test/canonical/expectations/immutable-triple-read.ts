import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'immutable-triple-read',
  decisions: [
    // The parameter sweeps: each variant pinned where its parameter moves a decision away from the base condition's.
    ...(['0.05', '0.1'] as const).map((t) => ({
      condition: `predictive-semantic@${t}`, prunePoint: 'pp-fix', item: 'u-pm', decision: 'KEEP' as const,
      why: `Relevance 0.11 is below the base threshold 0.2 (which prunes it) but not below ${t}.`,
    })),
    ...(['0.3', '0.4', '0.5'] as const).map((t) => ({
      condition: `predictive-semantic@${t}`, prunePoint: 'pp-fix', item: 'u-task', decision: 'KEEP' as const,
      why: `The task statement scores 0.22, below ${t}, but it is protected (a visible obligation names it), and since issue 10 (rule 7) protected items are never shown to the predictor, the ungated sweep included.`,
    })),
    ...(['1', '2', '5'] as const).map((m) => ({
      condition: `observation-masking@${m}`, prunePoint: 'pp-fix', item: 'r-cm1', decision: 'PRUNE' as const, outcome: 'false-prune' as const,
      why: `Observation 2 of 8 is inside the last 10 but older than the last ${m}, and the mutable read is needed later.`,
    })),
    ...(['20', '40'] as const).map((m) => ({
      condition: `observation-masking@${m}`, prunePoint: 'pp-postmortem', item: 'r-cm1', decision: 'KEEP' as const,
      why: `Observation 2 of 13 is older than the last 10 (the base masks it) but within the last ${m}.`,
    })),
    {
      condition: 'exact-redundancy', prunePoint: 'pp-fix', item: 'r-show1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The two git show outputs are byte-identical; the later one survives.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-fix', item: 'r-read1', decision: 'KEEP',
      why: 'The line-numbered read holds the same file but different bytes, so representation identity cannot see it.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', item: 'r-read1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Same immutable source at the same git sha as r-show2, so its rendering does not matter.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', item: 'r-show1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Second of three reads of one immutable source state; the group keeps r-show2.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', item: 'r-show2', decision: 'KEEP',
      why: 'The latest read of the source is the survivor.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', item: 'r-cm1', decision: 'ABSTAIN',
      why: 'The configmap is mutable and read at an UNKNOWN version, so same source state cannot be established (and it did change).',
    },
    {
      condition: 'ladder-0-1', prunePoint: 'pp-fix', item: 'r-read1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'After exact redundancy removes r-show1, source identity still removes the differently rendered read while r-show2 stays.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-fix', item: 'r-cm1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'Same kubectl get arguments as r-cm2, but the object changed in between and only r-cm1 shows the 500ms value.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-fix', item: 'r-show1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Here the same-arguments key coincides with a real duplicate.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-fix', item: 'u-task', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The context is over its 2,400-token budget and the task statement with the payments-prod rule is the oldest item.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-postmortem', item: 'r-cm2', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The 5s state is the middle of the timeline the postmortem lists; r-cm3 shows a different value.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-postmortem', item: 'r-logs1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The later logs call has the same arguments but shows the recovered pods, not the crash error.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-postmortem', item: 'r-logs1', decision: 'ABSTAIN',
      why: 'Two ok reads of the same log stream at an UNKNOWN version of a mutable source.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-postmortem', item: 'r-cm1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The first configmap read is the second of thirteen observations, older than the last ten.',
    },
  ],
  obligations: [
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-fix', obligation: 'ob-first-value', preserved: false,
      why: 'Only r-cm1 holds the 500ms line and its change time, and a live configmap cannot be re-read into the past.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', obligation: 'ob-parse', preserved: true,
      why: 'r-show2 keeps the parse function after the two older reads go.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', obligation: 'ob-first-value', preserved: true,
      why: 'Source identity abstains on the configmap reads, so both stay.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-fix', count: 1,
      why: 'r-cm1 is an irreducible mutable read and the same kubectl get runs again at turn 14; r-show1 is a pure git show and raises none.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-fix', count: 0,
      why: 'Both removed reads are of an immutable source, so they are deterministic, not irreducible.',
    },
  ],
};

export default expectations;
