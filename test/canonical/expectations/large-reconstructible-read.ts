import type { FixtureExpectations } from '../expectation.js';

const expectations: FixtureExpectations = {
  fixture: 'large-reconstructible-read',
  decisions: [
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', item: 'r-big', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-client-gen is closed and c-write-gen holds both consequence strings; the 8.6k-token spec read is recoverable through its pointer and the immutable source.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', item: 'r-small', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The catalog read is in the same closed trace, but its pointer\'s hash no longer matches the store and the live catalog renamed the code, so its offline rule is lost.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', item: 'c-write-gen', decision: 'KEEP',
      why: 'The consequence item itself is never released by its own unit.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', item: 'r-read-client', decision: 'KEEP',
      why: 'It belongs to the open wu-retry unit.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-retry', item: 'r-big', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The ladder\'s closure rung removes the large reconstructible read, as the regenerability record says it should.',
    },
    {
      condition: 'ladder-0-3', prunePoint: 'pp-retry', item: 'r-small', decision: 'PRUNE', outcome: 'false-prune',
      why: 'Nothing in the visible state reveals that the catalog\'s pointer is stale, so the closure rung removes it too.',
    },
    {
      condition: 'ladder-0-2', prunePoint: 'pp-retry', item: 'r-small', decision: 'KEEP',
      why: 'Without the closure rung no rule applies to a single successful read.',
    },
    {
      condition: 'source-identity', prunePoint: 'pp-retry', item: 'r-big', decision: 'KEEP',
      why: 'The spec is read once, so there is no second observation of the same source state to fall back on.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-retry', item: 'r-big', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The context (about 10.8k tokens) is far over the 900-token budget; evicting the large recoverable read is right even for an age rule.',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-retry', item: 'u-task', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The task statement is the oldest item and goes first.',
    },
    {
      condition: 'checked-supersession', prunePoint: 'pp-retry', item: 'r-tc1', decision: 'ABSTAIN',
      why: 'The edit call c-edit records its effects as bare strings beside another effect, so no outcome is recorded per effect: rung 2 cannot check that the transition succeeded for this source and abstains (was PRUNE: r-tc2 reruns the same typecheck on workspace:dashboard-web with the same tsconfig after c-edit named that workspace.)',
    },
    {
      condition: 'errored-input-residue', prunePoint: 'pp-retry', item: 'r-tc1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The failed typecheck is four turns old and superseded.',
    },
    {
      condition: 'exact-redundancy', prunePoint: 'pp-retry', item: 'r-lint1', decision: 'PRUNE', outcome: 'true-prune',
      why: 'Byte-identical to r-lint2, and no later step needs lint output.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-docs', item: 'r-big', decision: 'PRUNE', outcome: 'true-prune',
      why: 'The spec read is the second of thirteen observations; masking it is safe because it is recoverable.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-docs', item: 'r-small', decision: 'PRUNE', outcome: 'false-prune',
      why: 'The catalog read is the third observation and is masked with the only usable copy of the offline rule.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-docs', item: 'r-read-client', decision: 'PRUNE', outcome: 'true-prune',
      why: 'wu-retry is now closed with its consequence in m-retry-done.',
    },
  ],
  obligations: [
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', obligation: 'ob-ratelimit', preserved: true,
      why: 'r-big is removed but its pointer resolves (key present, hash matches) and the stored spec holds both strings; a re-read would also give the same bytes.',
    },
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', obligation: 'ob-offline', preserved: false,
      why: 'The pointer\'s hash does not match the overwritten store entry, and a re-read is not allowed for this obligation (the live catalog no longer has the code anyway).',
    },
    {
      condition: 'oldest-first', prunePoint: 'pp-retry', obligation: 'ob-ratelimit', preserved: true,
      why: 'Recovered through the durable pointer.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-docs', obligation: 'ob-offline', preserved: false,
      why: 'The masked catalog read has no usable pointer.',
    },
    {
      condition: 'observation-masking', prunePoint: 'pp-docs', obligation: 'ob-ratelimit', preserved: true,
      why: 'The masked spec read is recovered from the store.',
    },
  ],
  refetchAlerts: [
    {
      condition: 'verified-completion', prunePoint: 'pp-retry', count: 0,
      why: 'The spec read is durable-pointer class, and no later call repeats the tool and arguments of a removed irreducible observation.',
    },
  ],
};

export default expectations;
