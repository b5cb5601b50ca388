// The hypotheses table: every preregistered acceptance criterion with the figures it rests on, its verdict and the
// rows of the outcome table it matches. The CSV has one row per check (machines); the Markdown gives the verdicts,
// then each criterion's checks, then the whole outcome table with which rows hold.
import { from } from 'arquero';
import { caption, type Analysis } from './analysis.js';
import { verdict, type CriterionResult, type OutcomeResult } from './criteria.js';
import { EXPLORATORY_STAMP, fixed, isPreregisteredTable, UNDEFINED, type ReportTable } from './tables.js';
import { markdownTable } from './markdown.js';

export const HYPOTHESES_TABLE = 'hypotheses';

/** The outcome rows stated in terms of a criterion. */
function rowsFor(a: Analysis, c: CriterionResult): OutcomeResult[] {
  return a.outcomes.filter((o) => o.criteria.includes(c.id));
}

/** "O1 holds: meaning" for the rows that hold, else which rows were checked and why none holds. */
export function meaningOf(a: Analysis, c: CriterionResult): string {
  const rows = rowsFor(a, c);
  if (rows.length === 0) return 'no row of the outcome table is stated in terms of this criterion';
  const holding = rows.filter((o) => o.status === 'holds');
  if (holding.length > 0) return holding.map((o) => `${o.id} (${o.detail}): ${o.meaning}`).join(' ');
  return `no row holds: ${rows.map((o) => `${o.id} ${o.status} (${o.detail})`).join('; ')}`;
}

const num = (x: number | null) => (x === null ? '' : x);

export function hypothesesTable(a: Analysis): ReportTable {
  const data = a.acceptance.flatMap((c) => {
    const outcomeRows = rowsFor(a, c)
      .map((o) => `${o.id} ${o.status}`)
      .join('; ');
    return c.parts.flatMap((part) =>
      part.checks.map((k) => ({
        criterion: c.id,
        hypothesis: c.hypothesis,
        criterion_verdict: verdict(c.truth),
        subject: part.subject,
        subject_verdict: verdict(part.truth),
        check: k.check.kind,
        test: k.test,
        numerator: num(k.numerator),
        denominator: num(k.denominator),
        value: k.value === null ? UNDEFINED : fixed(k.value, 6),
        lo: k.lo === null ? UNDEFINED : fixed(k.lo, 6),
        hi: k.hi === null ? UNDEFINED : fixed(k.hi, 6),
        check_verdict: verdict(k.truth),
        note: k.note,
        outcome_rows: outcomeRows,
      })),
    );
  });
  const view = a.acceptance.map((c) => ({
    criterion: `${c.id} (${c.hypothesis})`,
    verdict: verdict(c.truth),
    why: c.why,
    'what it would mean': meaningOf(a, c),
  }));
  return {
    name: HYPOTHESES_TABLE,
    title: `Acceptance criteria ${a.acceptance.length > 0 ? `${a.acceptance[0]!.id}-${a.acceptance[a.acceptance.length - 1]!.id} ` : ''}evaluated on the results, with what each pattern would mean`,
    notes: [],
    data: from(data),
    view: from(view),
  };
}

export function hypothesesMarkdown(t: ReportTable, a: Analysis): string {
  const out: string[] = [
    ...(isPreregisteredTable(t.name, a) ? [] : [EXPLORATORY_STAMP, '']),
    `# ${t.title}`,
    '',
    `${caption(a)}.`,
    '',
  ];
  out.push(
    `Criteria, comparisons and the outcome table are those of \`${a.plan.file}\` (sha256 \`${a.plan.sha256.slice(0, 12)}\`). ` +
      "Each criterion is evaluated mechanically from its machine form (the study's definition under `experiments/`, pinned to the wording; the check kinds in `src/report/criteria.ts`); no verdict is stored. " +
      `Pooled counts with 95% fixture-cluster bootstrap intervals (Wilson only where a v1 criterion names it); differences with a paired fixture bootstrap (seed ${a.seed}, ${a.iterations} iterations); ` +
      `"significant" is a Holm-adjusted p at most alpha = ${a.alpha} across the ${a.comparisons.length} preregistered comparisons. ` +
      'A criterion is met when every check of every part holds, not met when one fails, and undefined when none fails but one rests on an undefined figure.',
    '',
  );
  out.push('## Verdicts', '');
  out.push(
    markdownTable(
      ['criterion', 'verdict', 'why', 'what it would mean (outcome table)'],
      a.acceptance.map((c) => [`${c.id} (${c.hypothesis})`, verdict(c.truth), c.why, meaningOf(a, c)]),
    ),
    '',
  );
  out.push('## The figures each criterion rests on', '');
  for (const c of a.acceptance) {
    out.push(`### ${c.id} (${c.hypothesis}): ${verdict(c.truth)}`, '', `> ${c.criterion}`, '');
    out.push(
      markdownTable(
        ['judged for', 'check', 'figures', 'result', 'note'],
        c.parts.flatMap((p) =>
          p.checks.map((k, i) => [
            i === 0 ? `${p.subject}: ${verdict(p.truth)}` : '',
            k.test,
            k.figures,
            verdict(k.truth),
            k.note || '–',
          ]),
        ),
      ),
      '',
    );
  }
  out.push('## What each pattern of results would mean', '');
  out.push(
    markdownTable(
      ['row', 'pattern', 'status', 'on these results', 'what it would mean'],
      a.outcomes.map((o) => [o.id, o.pattern, o.status, o.detail, o.meaning]),
    ),
    '',
  );
  return `${out.join('\n')}`;
}
