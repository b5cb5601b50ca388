import type { FixtureExpectations } from '../expectation.js';

// Closure the rule must refuse: a pointer whose key was written again (hash mismatch), a resolved note missing a
// consequence string, a note not yet written at the prune point; and the same note removing its trace once it lands.
const expectations: FixtureExpectations = {
  fixture: 'rule-closure-broken-pointer',
  decisions: [
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i10',
      decision: 'ABSTAIN',
      why: "SET-41's pointer recorded the hash of its note at current.md, which the SET-42 note overwrote at turn 8: the hash no longer matches, and this write holds the only why.",
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i05',
      decision: 'ABSTAIN',
      why: "Every item of SET-41's trace waits on the same broken pointer.",
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i19',
      decision: 'ABSTAIN',
      why: "SET-42's note resolves with its hash but lacks the consequence string 0043_add_payout_ref, which only this upgrade output shows.",
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      item: 'i25',
      decision: 'ABSTAIN',
      why: "SET-43's note is still in the sync queue at p1: the key does not resolve, and a later write is not the policy's to see.",
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p2',
      item: 'i25',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'By p2 the SET-43 note has landed with the recorded hash and both strings: the flaky run may go.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p2',
      item: 'i31',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'The note write itself is SET-43 trace; its pointer recovers the cause when the PR needs it.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p2',
      item: 'i10',
      decision: 'ABSTAIN',
      why: 'Still overwritten at p2.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p1',
      item: 'i19',
      decision: 'ABSTAIN',
      why: "The ladder's closure rung cannot verify SET-42 either.",
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'p2',
      item: 'i31',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: "The ladder removes SET-43's trace once its pointer resolves.",
    },
    {
      condition: 'oldest-first',
      prunePoint: 'p1',
      item: 'i10',
      decision: 'PRUNE',
      outcome: 'false-prune',
      why: 'Age-only eviction removes the SET-41 note write; scoring follows its pointer as of turn 13, when the key holds the SET-42 note, so the why is lost.',
    },
  ],
  obligations: [
    {
      condition: 'oldest-first',
      prunePoint: 'p1',
      obligation: 'd-ttl-why',
      preserved: false,
      why: 'The pointer is followed against the store as of the turn the obligation is needed: the key was written again.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p2',
      obligation: 'd-flaky-cause',
      preserved: true,
      why: 'The removed note write is recovered through its pointer, which resolves at turn 14.',
    },
    {
      condition: 'verified-completion',
      prunePoint: 'p1',
      obligation: 'd-migration-rev',
      preserved: true,
      why: 'The unverifiable SET-42 trace stays.',
    },
  ],
};

export default expectations;
