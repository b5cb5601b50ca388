import type { FixtureExpectations } from '../expectation.js';

// Issue 17, item 3: one fact stated two ways (pip show and the release manifest). The obligation is an anyOf of the
// two statements and the oracle a redundant group of the two results: one may go, not both.
const expectations: FixtureExpectations = {
  fixture: 'oracle-anyof-either-statement',
  decisions: [
    { condition: 'raw', prunePoint: 'p1', item: 'i04', decision: 'KEEP', why: 'raw removes nothing.' },
    { condition: 'raw', prunePoint: 'p1', item: 'i06', decision: 'KEEP', why: 'raw removes nothing.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "Rung 3 removes the closed lookup's trace; the first statement of the version goes while the manifest line still states it: the group can spare one.",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i06',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: "The second statement goes too, because the unit's consequence (the plan) does not carry the version: the last copy of the fact, a false prune.",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'KEEP',
      why: 'git status is outside the closed unit and no rung 0-3 rule finds a copy of it.',
    },
  ],
  obligations: [
    { condition: 'raw', prunePoint: 'p1', obligation: 'd-version', preserved: true, why: 'Both statements stay.' },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-version',
      preserved: false,
      why: 'Neither alternative of the anyOf survives the closure: the consequence did not record the version.',
    },
    {
      condition: 'observation-masking@2',
      prunePoint: 'p1',
      obligation: 'd-version',
      preserved: true,
      why: "Masking only pip show's output leaves the manifest's statement: one alternative suffices.",
    },
    {
      condition: 'observation-masking@1',
      prunePoint: 'p1',
      obligation: 'd-version',
      preserved: false,
      why: 'Masking both statements loses the fact: no alternative is left.',
    },
  ],
};

export default expectations;
