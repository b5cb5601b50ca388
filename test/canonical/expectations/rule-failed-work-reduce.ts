import type { FixtureExpectations } from '../expectation.js';

// Failed work the conservative rule must still reduce: a recorded message and fields, bulk needed by nothing visible.
const expectations: FixtureExpectations = {
  fixture: 'rule-failed-work-reduce',
  decisions: [
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "Nothing visible needs the mypy log; the recorded message (the tool's own first diagnostic) and fields stay, and they hold the file:line and [arg-type] the docs line needs.",
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "The failed call's arguments are needed by nothing visible; the call keeps the same residue, read from its result.",
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i14',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Two turns old and reduced at once: no age threshold. The importer synthesized "exit code 1", so the message is dropped, but the exit code field was recorded and stays.',
    },
    {
      condition: 'ladder-0-2',
      prunePoint: 'p1',
      item: 'i14',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The ladder reaches the failed pytest run through its residue rung (step 3) before checked supersession could take it whole.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p2',
      item: 'i05',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'At p2 the docs line is still only downstream; the full ladder cuts the mypy log to its residue.',
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "Five turns after it failed, DCP replaces the typecheck call's string inputs with its marker; nothing needs them.",
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'KEEP',
      why: "DCP keeps a failed call's error output: it purges inputs only.",
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'KEEP',
      why: "The pytest call failed two turns before p1, under DCP's four-turn threshold.",
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p2',
      item: 'i13',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Four turns after the failure DCP purges its command string.',
    },
  ],
  obligations: [
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      obligation: 'd-ci-entry',
      preserved: true,
      why: "The residue's message keeps services/ledger/ledger/posting.py:57 and [arg-type].",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p2',
      obligation: 'd-ci-entry',
      preserved: true,
      why: 'The ladder removes only the bulk; the residue holds both strings.',
    },
  ],
};

export default expectations;
