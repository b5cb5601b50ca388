// A Mechanism: the small extension point. It says which candidates its evidence lets go; prunelab puts it behind the
// same gates as a built-in mechanism (pinned, protected, obligation-named items and the regenerability refusal
// cases are never removed, whatever it says) and runs it as a Layer A condition named after its rule.
import type { Finding, Mechanism } from '../../src/policy/types.js';

const laterCopy: Mechanism = {
  rule: 'later-copy',
  rung: 0,
  version: '0.1.0',
  assess(view, candidates) {
    const findings: Finding[] = [];
    for (const id of candidates) {
      const at = view.items.findIndex((item) => item.id === id);
      const item = view.items[at]!;
      if (item.kind !== 'tool-result' || item.status?.state !== 'ok') continue;
      const copy = view.items
        .slice(at + 1)
        .find(
          (later) =>
            later.kind === 'tool-result' &&
            later.tool?.name === item.tool?.name &&
            later.status?.state === 'ok' &&
            later.content === item.content,
        );
      if (copy)
        findings.push({
          itemId: id,
          outcome: 'eligible',
          reason: `${copy.id}, later, returned the same content from the same tool`,
          reliesOn: [copy.id],
        });
    }
    return findings;
  },
};

export default laterCopy;
