import type { FixtureExpectations } from '../expectation.js';

// Issue 10, rule 6: every rung finds something here that the regenerability gate must refuse, since no identical
// copy of it stays in context. Refused items are ABSTAIN (never PRUNE) in every gated condition.
const expectations: FixtureExpectations = {
  fixture: 'rule-gate-refuse',
  decisions: [
    {
      condition: 'exact-redundancy', prunePoint: 'p1', item: 'i20', decision: 'ABSTAIN',
      why: 'The tags push answered "Everything up-to-date", byte-identical to the later branch push, but that is another non-idempotent call, so not the same observation: the gate refuses (a rung 0 that compares the call finds nothing here, and keeps it).',
    },
    {
      condition: 'ladder-0', prunePoint: 'p1', item: 'i20', decision: 'ABSTAIN',
      why: 'The same refusal inside the ladder.',
    },
    {
      condition: 'source-identity', prunePoint: 'p1', item: 'i07', decision: 'ABSTAIN',
      why: 'Two pod listings at one resourceVersion are the same source state to rung 1, but the first is transient state whose RESTARTS and AGE the later one does not repeat: refused.',
    },
    {
      condition: 'ladder-0-1', prunePoint: 'p1', item: 'i07', decision: 'ABSTAIN',
      why: 'Rung 1 inside the ladder is gated the same way.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'p1', item: 'i05', decision: 'ABSTAIN',
      why: 'The search after the patch covers the first one, but the first is a negative result: never superseded, never removed without a copy.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'p1', item: 'i05', decision: 'ABSTAIN',
      why: 'The negative result stays inside the ladder too.',
    },
    {
      condition: 'verified-completion', prunePoint: 'p1', item: 'i03', decision: 'ABSTAIN',
      why: 'The closed unit\'s trace holds the only statement of the PENDING_PAYMENT rule; no flag says so, but no other item in the view holds its text, so it is the sole record of a user constraint.',
    },
    {
      condition: 'verified-completion', prunePoint: 'p1', item: 'i08', decision: 'ABSTAIN',
      why: 'The runtime marked the plan as referenced by a pending step (flag): refused at rung 3.',
    },
    {
      condition: 'verified-completion', prunePoint: 'p1', item: 'i10', decision: 'ABSTAIN',
      why: 'The patch\'s output is the output of a non-idempotent call with no copy: refused even though the oracle would allow it (coverage lost, not safety).',
    },
    {
      condition: 'verified-completion', prunePoint: 'p1', item: 'i12', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The other side: the later search result in the closed trace has no refusal case, so closure removes it.',
    },
    {
      condition: 'verified-completion', prunePoint: 'p1', item: 'i09', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Tool calls of the closed unit go.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'p1', item: 'i03', decision: 'ABSTAIN',
      why: 'Sole constraint record, refused at the ladder\'s rung 3.',
    },
    {
      condition: 'ladder-0-4', prunePoint: 'p1', item: 'i03', decision: 'ABSTAIN',
      why: 'Refused at rung 3 and never shown to the predictor at rung 4.',
    },
    {
      condition: 'ladder-0-4', prunePoint: 'p1', item: 'i07', decision: 'ABSTAIN',
      why: 'Refused at rung 1; the ladder\'s predictor never sees it.',
    },
    {
      condition: 'regenerability-guard', prunePoint: 'p1', item: 'i07', decision: 'KEEP',
      why: 'Transient state is withheld from the gated predictor, so it is never proposed.',
    },
    {
      condition: 'regenerability-guard', prunePoint: 'p1', item: 'i12', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Nothing refused among the proposals: the later search goes.',
    },
    {
      condition: 'predictive-semantic', prunePoint: 'p1', item: 'i07', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The ungated ablation is shown the transient listing and removes it: the risk it measures.',
    },
    {
      condition: 'predictive-semantic', prunePoint: 'p1', item: 'i03', decision: 'PRUNE', outcome: 'false-prune',
      why: 'And the sole constraint record, which no gate protects in the ablation.',
    },
  ],
  obligations: [
    { condition: 'verified-completion', prunePoint: 'p1', obligation: 'd-pending', preserved: true, why: 'The gate keeps the PENDING_PAYMENT rule.' },
    { condition: 'ladder-0-4', prunePoint: 'p1', obligation: 'd-restarts', preserved: true, why: 'The gate keeps the first pod listing.' },
    { condition: 'predictive-semantic', prunePoint: 'p1', obligation: 'd-restarts', preserved: false, why: 'The ungated ablation loses the first listing.' },
  ],
};

export default expectations;
