// The behaviour table of docs/measures.md: one row per condition, every figure with its numerator and denominator, and
// the reader named on each row, so structural and model-read figures never share a column unlabelled.
import type { Ratio, Summary } from '../artifacts/schema.js';

const r = (x: Ratio): string =>
  x.value === null
    ? `undefined (${x.numerator}/${x.denominator})`
    : `${x.value.toFixed(3)} (${x.numerator}/${x.denominator})`;

export function renderBehaviourMarkdown(summaries: readonly Summary[]): string {
  const rows = summaries.map((s) => {
    const b = s.behaviour;
    return `| \`${s.condition}\` | ${b.reader} | ${b.probes} | ${r(b.full.taskSuccess)} | ${r(b.pruned.taskSuccess)} | ${r(b.paired.causedFailures)} | ${r(b.pruned.constraintViolations)} | ${r(b.pruned.unsupportedClaims)} | ${r(b.pruned.recoveryFailures)} | ${b.full.errors + b.pruned.errors} |`;
  });
  return (
    [
      '| condition | reader | probes | task success, full context | task success, pruned | failures caused by pruning | constraint violations | unsupported claims | recovery failures | errors |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n') + '\n'
  );
}
