import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'credential-once',
  decisions: [
    {
      condition: 'predictive-semantic', prunePoint: 'pp-build', item: 'u-cred', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The pasted password shares no word with the image build subgoal, yet the migration at turn 14 needs it and nothing else holds it.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'pp-build',
      item: 'u-cred',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): a one-time secret is withheld from the classifier, so it is never proposed and the guard keeps it.',
    },
    {
      condition: 'ladder-0-3',
      prunePoint: 'pp-build',
      item: 'u-cred',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): the secret is withheld from the predictor, and no rung 0-3 rule applies to it.',
    },
    {
      condition: 'ladder-0-4',
      prunePoint: 'pp-build',
      item: 'u-cred',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): the secret is withheld from the predictor, so rung 4 cannot remove it.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-build', item: 'u-cred', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The context (about 2k tokens) is over its 1,100-token budget and the credential is the second-oldest item.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-build', item: 'u-cred', decision: 'KEEP',
      why: 'Representation identity only considers tool results, and the credential appears once.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-build', item: 'r-build1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-build2 reruns npm run build on workspace:notify-svc with the same tsc target after edits that name the workspace.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-build', item: 'r-test1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-test2 covers all six test files after c-edit3 changed the workspace.',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-build', item: 'r-build1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The failed build is seven turns old and superseded; its residue is more than anything later needs.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-build', item: 'r-gs2', decision: 'PRUNE', outcome: 'true-prune',
      why: 'r-gs3 is byte-identical and survives with both modified paths for the commit.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-migrate', item: 'u-cred', decision: 'KEEP',
      why: 'At this point the pending step ps-migrate references the credential, so the gate keeps it.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'pp-migrate',
      item: 'u-cred',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): a pending step references the password, so it is protected and never shown even to the ungated ablation.',
    },
    {
      condition: 'regenerability-guard',
      prunePoint: 'pp-migrate',
      item: 'u-cred',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): protected by the pending step, so never proposed.',
    },
    {
      condition: 'predictive-semantic',
      prunePoint: 'pp-migrate',
      item: 'r-push',
      decision: 'KEEP',
      why: 'Since the predictor is never shown pinned, protected or gated items (issue 10, rule 7): protected at this prune point, so never shown to the predictor.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-migrate', item: 'r-docker', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-build is closed and its consequence r-push holds the pushed digest line.',
    },
  ],
  obligations: [
    {
      condition: 'predictive-semantic', prunePoint: 'pp-build', obligation: 'ob-cred', preserved: false,
      why: 'The password exists only in u-cred, with no durable pointer and no source to re-read.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-build', obligation: 'ob-cred', preserved: false,
      why: 'Age-based eviction reaches the credential before the context fits.',
    },
    {
      condition: 'regenerability-guard', prunePoint: 'pp-build', obligation: 'ob-cred', preserved: true,
      why: 'The guard refuses the prune.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-build', obligation: 'ob-cred', preserved: true,
      why: 'The conservative ladder abstains on the credential.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'predictive-semantic', prunePoint: 'pp-build', count: 0,
      why: 'A credential has no tool call that could fetch it again, so the detector cannot see this loss.',
    },
  ],
};

export default expectations;
