import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'superseded-test-run',
  decisions: [
    {
      condition: 'checked-supersession', prunePoint: 'pp-mid', item: 'r-R1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-R2 reruns the same command on workspace:inventory-api, covers all 31 tests, and c-edit1 between them lists that identity in its effects.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-mid', item: 'r-R3', decision: 'KEEP',
      why: 'The only newer run of the same command (r-R4) covers 18 of r-R3\'s 24 tests, so supersession is checked and fails; no rule establishes eligibility.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-mid', item: 'r-R3', decision: 'KEEP',
      why: 'r-R4 repeats the same tool and arguments, but DCP replaces only completed outputs and r-R3 errored (non-zero exit), so the comparator leaves it; its weaker key is exposed on the passing runs instead.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-mid', item: 'r-R1', decision: 'KEEP',
      why: 'The failing inventory run is an errored output too, so DCP does not replace it either.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-mid', item: 'r-R3', decision: 'PRUNE', outcome: 'false-prune',
      why: 'r-R3 is the sixth of sixteen observations, older than the last ten, so it is masked with its JPY result.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-mid', item: 'r-R2', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The passing inventory run the PR must cite is also older than the last ten observations.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', item: 'r-R3', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The run exited non-zero six turns ago; its residue keeps the exit code and counts but not the assertion the JPY fix is checked against.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', item: 'r-R1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The superseded inventory failure is removable, so trimming it to residue is safe.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', item: 'r-R4', decision: 'KEEP',
      why: 'A pending step references r-R4: the gate keeps it, and its bulk is not checked unneeded.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'pp-mid', item: 'r-R3', decision: 'PRUNE', outcome: 'false-prune',
      why: 'In the ladder the errored-input rung runs before checked supersession and removes r-R3 first, although supersession would have kept it.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-mid', item: 'r-gitlog1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Byte-identical to r-gitlog2, which survives with the base commit.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-mid', item: 'r-dec1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Same immutable decimal.js 10.4.3 typings, same lockfile integrity hash and line range as r-dec2.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-mid', item: 'r-gitlog1', decision: 'ABSTAIN',
      why: 'git log reads the mutable repository at an UNKNOWN version.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-mid', item: 'r-read-reserve', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-inventory is closed and its consequence r-R2 contains "Tests  31 passed (31)", so its trace may go.',
    },
    {
      condition: 'predictive-semantic', prunePoint: 'pp-mid', item: 'r-R2', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The passing inventory run shares no word with the billing rounding subgoal, but the PR later cites it.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'pp-mid',
      item: 'r-R2',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): nothing refused among the proposals, so the guard passes the predictor\'s mistake through: the cost of withholding refusal cases from the classifier.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-pr', item: 'r-R3', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-R5 covers all 24 billing tests and the agent\'s edits to workspace:billing-worker lie between the runs.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-pr', item: 'r-R4', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-R5 covers a superset of r-R4\'s 18 tests and c-edit3 between them names workspace:billing-worker.',
    },
  ],
  obligations: [
    {
      condition: 'checked-supersession', prunePoint: 'pp-mid', obligation: 'ob-jpy', preserved: true,
      why: 'Supersession keeps r-R3 because the later run does not cover the rounding tests.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-mid', obligation: 'ob-jpy', preserved: false,
      why: 'The JPY assertion exists only in r-R3, which masking replaces, and the test runner is not a recoverable source.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', obligation: 'ob-jpy', preserved: false,
      why: 'The residue keeps the exit code and counts, not the assertion text.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-mid', obligation: 'ob-inventory-pass', preserved: false,
      why: 'The masked r-R2 is the only item holding the inventory pass summary.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'observation-masking', prunePoint: 'pp-mid', count: 1,
      why: 'Masking drops r-R3, an irreducible mutable observation with no identical copy, and the same billing-worker command runs again at turn 14.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-mid', count: 0,
      why: 'It removes only r-R1, and the inventory-api command is never run again.',
    },
  ],
};

export default expectations;
