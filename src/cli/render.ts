// Plain-text views of conditions and summaries for a terminal; machine readers use --json or the files.
import type { OracleRatio, Ratio, Summary } from '../artifacts/schema.js';
import type { TokensOf } from '../fixture/view.js';
import type { LoadedFixture } from '../fixture/load.js';
import type { Registered } from '../policy/registry.js';
import type { ConditionInfo } from '../policy/types.js';
import { relativePath } from '../fixture/canonical.js';
import { baseRate, ratio } from '../score/ratio.js';

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n') + '\n';
}

export function renderConditionList(conditions: readonly ConditionInfo[]): string {
  return table(
    ['condition', 'layer', 'rung', 'description'],
    conditions.map((c) => [
      c.name,
      c.layer,
      c.rung === null ? '-' : String(c.rung),
      `${c.upperRisk ? '[upper-risk] ' : ''}${c.description}`,
    ]),
  );
}

/** An oracle measure without an oracle prints why it is absent, never a number. */
const NO_ORACLE = 'undef (no oracle)';

const pct = (r: Ratio | OracleRatio): string => {
  if (r.numerator === null) return NO_ORACLE;
  return r.value === null
    ? `undef (${r.numerator}/${r.denominator})`
    : `${(r.value * 100).toFixed(1)}% (${r.numerator}/${r.denominator})`;
};

export function renderSummaryTable(summaries: readonly Summary[], outDir: string, cwd: string): string {
  const rows = summaries.map((s) => [
    s.condition,
    s.layer,
    s.rung === null ? '-' : String(s.rung),
    `${s.decisions.prune}/${s.decisions.defer}/${s.decisions.abstain}`,
    pct(s.precision),
    pct(s.falsePruneRate),
    pct(s.coverage),
    pct(s.abstentionRate),
    `${s.obligations.preserved}/${s.obligations.total}`,
    String(s.refetchAlerts),
    `${s.tokens.raw} -> ${s.tokens.final}`,
  ]);
  const head = [
    'condition',
    'layer',
    'rung',
    'prune/defer/abstain',
    'precision',
    'false-prune rate',
    'coverage',
    'abstention',
    'obligations',
    'alerts',
    'tokens raw -> final',
  ];
  const first = summaries[0];
  const scope = first
    ? `${first.fixtures} fixtures, ${first.prunePoints} prune points, timing ${first.timing}, placeholders ${first.placeholders}`
    : 'no conditions';
  const reason = unscoredReason(summaries);
  const note = reason ? `\nprecision, false-prune rate and coverage are undefined (no oracle): ${reason}\n` : '';
  return `${scope}\n\n${table(head, rows)}${note}\nwritten to ${relativePath(outDir, cwd)}/\n`;
}

/** Why the oracle measures are absent from a run, when they are. */
export function unscoredReason(summaries: readonly Summary[]): string | undefined {
  for (const s of summaries) if (s.precision.numerator === null) return s.precision.reason;
  return undefined;
}

/**
 * The conditions table (docs/conditions.md), generated from the registry's definitions so the two cannot drift apart: the layer
 * is the definition's (the baseline is recorded as a control in results), and a condition that reads the predictor
 * says under which scope.
 */
export function renderConditionsMarkdown(registered: readonly Registered[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = registered.map(({ condition: c, definition, variant }) => {
    const params =
      Object.entries(c.parameters)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ') || '-';
    const basis = c.reference ?? (c.order ? c.order.join(' → ') : '-');
    const scope = variant === 'sweep' ? undefined : definition.consumes?.predictor;
    const flags =
      [c.upperRisk ? '**upper-risk**' : '', c.consultsObligations ? 'gate' : '', scope ? `predictor (${scope})` : '']
        .filter(Boolean)
        .join(', ') || '-';
    return `| \`${c.name}\` | ${definition.layer} | ${c.rung ?? '-'} | ${flags} | ${cell(c.description)} | ${cell(params)} | ${cell(basis)} |`;
  });
  return (
    [
      '| condition | layer | rung | flags | what it does | parameters | order or published source |',
      '|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n') + '\n'
  );
}

/** The table of canonical fixtures: what each one is, and how big; `linkPrefix` leads from its page to the root. */
export function renderFixturesMarkdown(
  fixtures: readonly LoadedFixture[],
  tokensOf: TokensOf,
  linkPrefix = '',
): string {
  const rows = fixtures.map(({ fixture: f, file }) => {
    const tokens = f.items.reduce((s, i) => s + tokensOf(i.content), 0);
    const points = f.prunePoints
      .map((p) => `${p.id} (turn ${p.turn}${p.taskBoundary ? ', task boundary' : ''})`)
      .join(', ');
    return `| [\`${f.id}\`](${linkPrefix}${file}) | ${f.title.replace(/\|/g, '\\|')} | ${f.items.length} | ${tokens} | ${points} |`;
  });
  return (
    ['| fixture | what it holds | items | tokens | prune points |', '|---|---|---|---|---|', ...rows].join('\n') + '\n'
  );
}

/** "0.327 (16869/51515)", "undefined (0/0)", or "undefined (no oracle)": a rate as the generated tables print it. */
function rate(x: Ratio | OracleRatio): string {
  if (x.numerator === null) return 'undefined (no oracle)';
  return x.value === null
    ? `undefined (${x.numerator}/${x.denominator})`
    : `${x.value.toFixed(3)} (${x.numerator}/${x.denominator})`;
}

/**
 * The full tables of the committed study (docs/study.md), every measure with its numerator and denominator: the
 * measures first, the primary ones (harm rate, obligations lost) leading and the base rate beside the precision and
 * false-prune rate it must be read against; then the token accounting, in a second table so each stays readable.
 */
export function renderResultsMarkdown(summaries: readonly Summary[]): string {
  const harm = (s: Summary) =>
    s.harm === null ? 'undefined (no oracle)' : rate(ratio(s.harm.necessaryRemoved, s.harm.necessaryItems));
  const measures = summaries.map(
    (s) =>
      `| \`${s.condition}\` | ${s.layer} | ${s.rung ?? '-'} | ${s.decisions.prune} / ${s.decisions.defer} / ${s.decisions.abstain} | ${harm(s)} | ${rate(ratio(s.obligationsLost.lost, s.obligationsLost.declared))} | ${rate(baseRate(s))} | ${rate(s.precision)} | ${rate(s.falsePruneRate)} | ${rate(s.coverage)} | ${rate(s.abstentionRate)} | ${rate(ratio(s.obligations.preserved, s.obligations.total))} | ${s.refetchAlerts} |`,
  );
  const tokens = summaries.map(
    (s) =>
      `| \`${s.condition}\` | ${s.tokens.raw} | ${s.tokens.removed} | ${s.tokens.placeholder} | ${s.tokens.overhead} | ${s.tokens.final} |`,
  );
  const first = summaries[0];
  const scope = first
    ? `${first.fixtures} fixtures, ${first.prunePoints} prune points, timing \`${first.timing}\`, placeholders \`${first.placeholders}\`.\n\n`
    : '';
  return (
    scope +
    [
      '| condition | layer | rung | prune / defer / abstain | harm rate | obligations lost | base rate | precision | false-prune rate | coverage | abstention | obligations preserved | re-fetch alerts |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...measures,
      '',
      'Harm rate: necessary units removed over necessary units, each (fixture, unit) counted once; obligations lost: declared obligations lost, each (fixture, obligation) counted once (the primary measures, which do not move with the base rate). Base rate: the removable share of the items decided on, the precision of pruning everything; read precision and the false-prune rate against it.',
      '',
      'Tokens, summed over prune points (final = raw - removed + placeholder; overhead is spent beside the context, not in it):',
      '',
      '| condition | raw tokens | removed | placeholder | overhead | final |',
      '|---|---|---|---|---|---|',
      ...tokens,
    ].join('\n') +
    '\n'
  );
}
