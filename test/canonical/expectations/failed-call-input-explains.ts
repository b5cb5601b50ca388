import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'failed-call-input-explains',
  decisions: [
    {
      condition: 'dcp-purge-errors', prunePoint: 'pp-mid', item: 'c-apply1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'DCP\'s age rule: five turns after the failure it replaces the call\'s string inputs, the generated SQL among them, which is the only record of line 692.',
    },
    {
      condition: 'dcp-purge-errors', prunePoint: 'pp-mid', item: 'r-apply1', decision: 'KEEP',
      why: 'DCP keeps the error output of a failed call.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', item: 'c-apply1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The call errored five turns before the prune point, so the rule strips its arguments, but the generated script existed nowhere else and the fix needs its line 692.',
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'pp-mid',
      item: 'r-apply1',
      decision: 'ABSTAIN',
      why: 'Since the regenerability gate (issue 10, rule 6): the failed output of a non-idempotent migration call is a refusal case, and a residue removal is a removal too (lost coverage, not safety).',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', item: 'r-tw', decision: 'PRUNE', outcome: 'true-prune',
      why: 'A test invocation with a misspelled project, retried correctly on the next turn: its residue is more than any later step needs.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'pp-mid', item: 'c-apply1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'No visible obligation names the failed call, so the gate lets the ladder\'s errored-input rung strip the only copy of the script.',
    },
    {
      condition: 'raw', prunePoint: 'pp-mid', item: 'c-apply1', decision: 'KEEP',
      why: 'The control keeps everything, so line 692 stays available for the rewrite.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-mid', item: 'r-gs1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-gs1 and r-gs2 are byte-identical git status outputs; dropping the older leaves the branch name in the survivor.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-mid', item: 'r-gs2', decision: 'KEEP',
      why: 'The latest copy of an identical group is the survivor.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-mid', item: 'r-gs1', decision: 'ABSTAIN',
      why: 'git status reads a mutable working tree at an UNKNOWN version, so same source state cannot be established.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-mid', item: 'r-gs1', decision: 'ABSTAIN',
      why: 'Same tool, arguments and source as r-gs2 but neither output carries parsed coverage.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-mid', item: 'u-task', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The context (about 11.8k tokens) is over the 1,500-token budget and the user\'s task statement, with the never-ledger_prod rule, is the oldest item.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-mid', item: 'c-apply1', decision: 'PRUNE', outcome: 'false-prune',
      why: 'Removing items oldest first reaches the 8.9k-token failed call before the context fits the budget.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-pr', item: 'c-apply1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Once the corrected script is written to disk and applied, the failed call\'s bulk feeds no later step.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-pr', item: 'r-tb', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-ta reruns the same command on workspace:ledger-service, covers all 48 tests r-tb covered, and c-write between them names that source in its effects.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-pr', item: 'r-tb', decision: 'ABSTAIN',
      why: 'The two ok runs read the same workspace identity but at an UNKNOWN version of a mutable source.',
    },
    {
      condition: 'same-tool-args-dedup', prunePoint: 'pp-pr', item: 'r-tb', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Same tool and arguments as the later run; here the later run really does supersede it.',
    },
  ],
  obligations: [
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', obligation: 'ob-line', preserved: false,
      why: 'The required line exists only in c-apply1\'s arguments, which the residue does not keep, and a tool call has no source to re-read.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', obligation: 'ob-error-loc', preserved: true,
      why: 'The error message and line number survive in r-apply1\'s residue.',
    },
    {
      condition: 'raw', prunePoint: 'pp-mid', obligation: 'ob-line', preserved: true,
      why: 'Nothing is removed.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'pp-mid', obligation: 'ob-line', preserved: false,
      why: 'The ladder applies the same errored-input rung to the unprotected failed call.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'exact-redundancy', prunePoint: 'pp-mid', count: 0,
      why: 'git status runs again at turn 13 after r-gs1 (a mutable read) is removed, but its byte-identical copy r-gs2 is still in context, so the later call re-fetches nothing the removal lost.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-mid', count: 0,
      why: 'The later steps use write_file and psql_exec, never db_apply_migration or run_tests with the misspelled project again.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-pr', count: 1,
      why: 'The pre-push hook reruns the same ledger-core command at turn 15 after r-tb, a mutable observation, was removed.',
    },
  ],
};

export default expectations;
