import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'rejected-hypotheses',
  decisions: [
    {
      condition: 'verified-completion', prunePoint: 'pp-fix', item: 'h1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-diagnose is closed and m-rootcause holds "N+1" and "LoyaltyPointsResolver", so the rejected GC hypothesis in its trace may go.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-fix', item: 'h2', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The rejected cache-stampede hypothesis is closed work whose conclusion is recorded.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-fix', item: 'r-gclog', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The GC log was evidence for a rejected hypothesis of the closed unit and nothing later asks for it.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-fix', item: 'h3', decision: 'KEEP',
      why: 'H3 belongs to the open wu-pool unit, so no closure covers it.',
    },
    {
      condition: 'predictive-semantic', prunePoint: 'pp-fix', item: 'h3', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The pool note shares no word with the DataLoader subgoal, but it is the only record of the live measurement the pool question needs.',
    },
    {
      condition: 'predictive-semantic', prunePoint: 'pp-fix', item: 'h1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'For an ordinary rejected hypothesis the predictor\'s guess is right.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'pp-fix',
      item: 'h3',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): the negative measurement is never shown to the gated predictor.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'pp-fix',
      item: 'h1',
      decision: 'PRUNE',
      outcome: 'true-prune',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): with the refused items withheld nothing among the proposals is refused, so the rejected hypothesis goes (a true prune).',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'pp-fix',
      item: 'h3',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): withheld from the predictor; no rung 0-3 rule applies.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-fix', item: 'h1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The verified-completion rung removes the closed unit\'s rejected hypotheses.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'pp-fix',
      item: 'h3',
      decision: 'KEEP',
      why: 'Since the regenerability gate (issue 10, rule 6): the negative result is refused at rung 4 in the ladder.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-fix', item: 'r-top1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Byte-identical kubectl top output that no later step needs.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-fix', item: 'u-task', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The context is over its 1,000-token budget and the oldest item holds the ask-before-touching-pgbouncer rule.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-pr', item: 'r-k6-1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-k6-2 reruns the same k6 scenario on workspace:orders-api, covers checkout_flash_sale, and c-edit between them names that workspace.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-pr', item: 'r-k6-1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The threshold failure is five turns old and superseded, so trimming it to residue is safe.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-pr', item: 'r-resolver', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-fix is closed with its consequence in r-k6-2, and the edit that needed the old resolver is done.',
    },
  ],
  obligations: [
    {
      condition: 'predictive-semantic', prunePoint: 'pp-fix', obligation: 'ob-pool-evidence', preserved: false,
      why: 'The 12/50 peak exists only in H3 and the pools are quiet now, so nothing can recover it.',
    },
    {
      condition: 'regenerability-guard', prunePoint: 'pp-fix', obligation: 'ob-pool-evidence', preserved: true,
      why: 'The guard refuses the prune that contains H3.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-fix', obligation: 'ob-pool-evidence', preserved: true,
      why: 'The conservative ladder abstains on prediction-only removals.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'pp-fix',
      obligation: 'ob-pool-evidence',
      preserved: true,
      why: 'Since the regenerability gate (issue 10, rule 6): H3 stays.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'predictive-semantic', prunePoint: 'pp-fix', count: 1,
      why: 'The predictor drops the baseline load test (an irreducible mutable observation) and the same k6 run is issued at turn 12.',
    },
  ],
};

export default expectations;
