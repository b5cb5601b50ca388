import type { FixtureExpectations } from '../expectation.js';

// Failed work the conservative rule must refuse: bulk holding a visible obligation's string, bulk of a failed call a
// pending step references, and a failure whose only message the importer synthesized.
const expectations: FixtureExpectations = {
  fixture: 'rule-failed-work-refuse',
  decisions: [
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'KEEP',
      why: 'The migration log holds uq_invoice_number_tenant, which visible obligation o-index needs (and the duplicated key only it shows).',
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i04',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "The migration call's own arguments (revision head, env staging) hold no visible string and no referenced id: the check is per item.",
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i10',
      decision: 'KEEP',
      why: 'Pending step ps-retry references the failed deploy call i09; its result is the other half of that failed call, so its 409 body (the blocking release id) is not bulk nothing needs.',
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'KEEP',
      why: 'The call the pending retry references keeps its arguments (the image to redeploy).',
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'ABSTAIN',
      why: 'The importer synthesized "exit code 2" and recorded no field: a reduction would keep nothing the tool recorded, so the rule abstains.',
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      item: 'i12',
      decision: 'ABSTAIN',
      why: "The lint call's residue would be read from the same synthesized result: abstain on both halves.",
    },
    {
      condition: 'ladder-0-2',
      prunePoint: 'p1',
      item: 'i10',
      decision: 'KEEP',
      why: 'No rung of the ladder may cut the 409 body the pending retry depends on.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'ABSTAIN',
      why: 'The full ladder abstains on the lint output: its residue rung cannot run its check.',
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      item: 'i09',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: "Five turns after the 409, DCP's age rule replaces the deploy call's string inputs, the image the retry must redeploy among them.",
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      item: 'i12',
      decision: 'KEEP',
      why: 'Four turns after the lint failure but three model steps (DCP counts steps): its age rule waits, though nothing needs the command string.',
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      item: 'i13',
      decision: 'KEEP',
      why: 'DCP keeps error outputs, so the ruff output with F841 stays.',
    },
  ],
  obligations: [
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      obligation: 'd-retry',
      preserved: true,
      why: 'The deploy call and its 409 body both stay.',
    },
    {
      condition: 'dcp-purge-errors',
      prunePoint: 'p1',
      obligation: 'd-retry',
      preserved: false,
      why: 'The image string was a purged input of the failed deploy call.',
    },
    {
      condition: 'errored-input-residue',
      prunePoint: 'p1',
      obligation: 'd-lint',
      preserved: true,
      why: 'The lint output was not reduced.',
    },
  ],
};

export default expectations;
