import type { FixtureExpectations } from '../expectation.js';

// Issue 17, item 3: three needs that are facts, not strings: grep found nothing (i04), the tests passed (i06),
// ledger-scan died with exit code 137 (i08). A residue that keeps the recorded exit code still states the last.
const expectations: FixtureExpectations = {
  fixture: 'oracle-facts-not-strings',
  decisions: [
    { condition: 'raw', prunePoint: 'p1', item: 'i04', decision: 'KEEP', why: 'raw removes nothing.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'ABSTAIN',
      why: 'The empty search is a negative result with no identical copy: the gate refuses it, and with it the fact that nothing uses legacyPay stays.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i08',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "The crash log's bulk goes; its recorded error type and exit code stay as residue, which is all the oracle asks.",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'ABSTAIN',
      why: 'Only prediction supports removing the passing run; rungs 0-3 do not act on it.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'The predictor removes the only statement that the tests passed.',
    },
  ],
  obligations: [
    { condition: 'raw', prunePoint: 'p1', obligation: 'd-unused', preserved: true, why: 'Everything stays.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-exit',
      preserved: true,
      why: 'The residue keeps exitCode: 137, which states the exit-code fact.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-unused',
      preserved: true,
      why: 'The empty search stays.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'p1',
      obligation: 'd-green',
      preserved: false,
      why: 'The passing run went and no marker states that tests passed.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'p1',
      obligation: 'd-unused',
      preserved: false,
      why: 'The empty search went: a marker does not state that a search found nothing.',
    },
  ],
};

export default expectations;
