// The ecology's table (Markdown and CSV) and chart spec, plus the table of what every condition did to the same
// traces. All text is built from the numbers alone, so the same traces always give the same bytes.
import { csvTable } from '../artifacts/csv.js';
import type { Summary } from '../artifacts/schema.js';
import { distinctColours } from '../report/render-chart.js';
import { ASSUMPTION, CANDIDATE_CLASSES, REGENERABILITY_CLASSES, type TraceEcology, type Volume } from './ecology.js';

export const ECOLOGY_HEADER = [
  'These are candidate volumes, not safe removals, and not labels.',
  "Each figure is the share of the active context's tokens (o200k_base, at the trace's last prune point) that a",
  'class of pruning candidate would touch, as the mechanism for that class finds it eligible; "undecided" is where',
  'the mechanism applies but the record lacks the evidence it needs (an unknown source version, unparsed coverage).',
  'No obligation was checked and no oracle exists: a share says how much there is to decide about, not how much',
  'may safely go. Classes overlap, so shares do not add up; "any class" counts each token once, and "the rest" is',
  'what no class finds eligible. The regenerability columns say how much the record would refuse to evict.',
].join('\n');

export const ASSUMPTION_NOTE = [
  `A second table decides every class again under a stated assumption, "${ASSUMPTION}": no recorder stores the`,
  "version a read saw, so a version is inferred from the agent's own recorded writes between two reads of a file",
  '(a shell command or any call whose writes cannot be listed counts as a write to every file). That is a weaker',
  'guarantee than a recorded version: "assumed" is what the assumption adds to the strictly decided share, and',
  '"undecided" what stays undecided even under it. The strict table above does not include it.',
].join('\n');

const share = (v: Volume, of: number): string =>
  of === 0 ? 'undefined (0 tokens)' : `${((100 * v.tokens) / of).toFixed(1)}% (${v.tokens})`;

export function ecologyMarkdown(rows: readonly TraceEcology[], total: TraceEcology): string {
  const head = [
    'trace',
    'format',
    'items',
    'tokens',
    ...CANDIDATE_CLASSES.map((c) => c.label),
    'any class',
    'the rest',
  ];
  const line = (t: TraceEcology) => [
    t.fixture === 'total' ? '**total**' : `\`${t.fixture}\``,
    t.format,
    String(t.items),
    String(t.contextTokens),
    ...CANDIDATE_CLASSES.map((c) => {
      const v = t.candidates[c.key];
      return v.undecided.tokens > 0
        ? `${share(v.eligible, t.contextTokens)}; undecided ${share(v.undecided, t.contextTokens)}`
        : share(v.eligible, t.contextTokens);
    }),
    share(t.anyClass, t.contextTokens),
    share(t.rest, t.contextTokens),
  ];
  const regenHead = ['trace', 'tokens', ...REGENERABILITY_CLASSES.map((r) => r.label)];
  const regenLine = (t: TraceEcology) => [
    t.fixture === 'total' ? '**total**' : `\`${t.fixture}\``,
    String(t.contextTokens),
    ...REGENERABILITY_CLASSES.map((r) => share(t.regenerability[r.key], t.contextTokens)),
  ];
  const assumedHead = ['trace', 'tokens', ...CANDIDATE_CLASSES.map((c) => c.label), 'any class'];
  const assumedLine = (t: TraceEcology) => [
    t.fixture === 'total' ? '**total**' : `\`${t.fixture}\``,
    String(t.contextTokens),
    ...CANDIDATE_CLASSES.map((c) => {
      const v = t.candidates[c.key];
      return `decided ${share(v.eligible, t.contextTokens)}; assumed +${share(v.assumed.eligible, t.contextTokens)}; undecided ${share(v.assumed.undecided, t.contextTokens)}`;
    }),
    `decided ${share(t.anyClass, t.contextTokens)}; with assumed ${share(t.anyClassAssumed, t.contextTokens)}`,
  ];
  const table = (h: string[], body: string[][]) =>
    [`| ${h.join(' | ')} |`, `|${h.map(() => '---').join('|')}|`, ...body.map((b) => `| ${b.join(' | ')} |`)].join(
      '\n',
    );
  return [
    '# Ecological gate: candidate volumes in recorded sessions',
    '',
    ECOLOGY_HEADER,
    '',
    '## Candidate classes (share of active-context tokens, with token counts)',
    '',
    table(head, [...rows.map(line), line(total)]),
    '',
    `## Under the assumption "${ASSUMPTION}" (a weaker guarantee)`,
    '',
    ASSUMPTION_NOTE,
    '',
    table(assumedHead, [...rows.map(assumedLine), assumedLine(total)]),
    '',
    '## What the regenerability record distinguishes',
    '',
    table(regenHead, [...rows.map(regenLine), regenLine(total)]),
    '',
  ].join('\n');
}

/** One row per trace and class: tokens and items with their denominator, so any share can be recomputed. */
export function ecologyCsv(rows: readonly TraceEcology[], total: TraceEcology): string {
  const out: (string | number)[][] = [
    ['trace', 'format', 'group', 'class', 'evidence', 'items', 'tokens', 'context_items', 'context_tokens', 'share'],
  ];
  const push = (t: TraceEcology, group: string, cls: string, evidence: string, v: Volume) =>
    out.push([
      t.fixture,
      t.format,
      group,
      cls,
      evidence,
      v.items,
      v.tokens,
      t.items,
      t.contextTokens,
      t.contextTokens === 0 ? '' : (v.tokens / t.contextTokens).toFixed(6),
    ]);
  for (const t of [...rows, total]) {
    for (const c of CANDIDATE_CLASSES) {
      push(t, 'candidate', c.key, 'eligible', t.candidates[c.key].eligible);
      push(t, 'candidate', c.key, 'undecided', t.candidates[c.key].undecided);
      push(t, 'candidate', c.key, 'assumed-eligible', t.candidates[c.key].assumed.eligible);
      push(t, 'candidate', c.key, 'assumed-undecided', t.candidates[c.key].assumed.undecided);
    }
    push(t, 'candidate', 'any-class', 'eligible', t.anyClass);
    push(t, 'candidate', 'any-class', 'eligible-or-assumed', t.anyClassAssumed);
    push(t, 'candidate', 'rest', '-', t.rest);
    for (const r of REGENERABILITY_CLASSES) push(t, 'regenerability', r.key, '-', t.regenerability[r.key]);
  }
  return csvTable(out);
}

/** The chart's series: what is decided, what only the assumption decides, what stays undecided, and the rest. */
export const CHART_SERIES = [
  'decided eligible (recorded evidence)',
  `eligible only under "${ASSUMPTION}" (weaker)`,
  'undecided (evidence missing even under the assumption)',
  'in the class (regenerability record)',
  'no class eligible',
] as const;

export function ecologyChartSpec(rows: readonly TraceEcology[], total: TraceEcology): object {
  const [decided, assumed, undecided, record, none] = CHART_SERIES;
  const values: { trace: string; class: string; evidence: string; rank: number; share: number; tokens: number }[] = [];
  for (const t of [...rows, total]) {
    const of = t.contextTokens;
    const add = (label: string, evidence: string, v: Volume) =>
      values.push({
        trace: t.fixture,
        class: label,
        evidence,
        rank: CHART_SERIES.indexOf(evidence as (typeof CHART_SERIES)[number]),
        share: of === 0 ? 0 : v.tokens / of,
        tokens: v.tokens,
      });
    for (const c of CANDIDATE_CLASSES) {
      const v = t.candidates[c.key];
      add(c.short, decided, v.eligible);
      add(c.short, assumed, v.assumed.eligible);
      add(c.short, undecided, v.assumed.undecided);
    }
    add('any class', decided, t.anyClass);
    add('any class', assumed, {
      items: t.anyClassAssumed.items - t.anyClass.items,
      tokens: t.anyClassAssumed.tokens - t.anyClass.tokens,
    });
    add('the rest', none, t.rest);
    for (const r of REGENERABILITY_CLASSES) add(r.short, record, t.regenerability[r.key]);
  }
  const order = [
    ...CANDIDATE_CLASSES.map((c) => c.short),
    'any class',
    'the rest',
    ...REGENERABILITY_CLASSES.map((r) => r.short),
  ];
  const traces = [...rows, total].map((t) => t.fixture);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Candidate volumes in recorded sessions (share of active-context tokens)',
      subtitle: [
        `Candidate volumes, not safe removals, and not labels. Classes overlap. "Assumed": decided only if ${ASSUMPTION}.`,
      ],
    },
    background: 'white',
    data: { values },
    facet: {
      row: {
        field: 'class',
        type: 'nominal',
        sort: order,
        title: null,
        header: { labelAngle: 0, labelAlign: 'left', labelLimit: 300 },
      },
    },
    spacing: 4,
    spec: {
      width: 420,
      height: { step: 10 },
      mark: 'bar',
      encoding: {
        y: { field: 'trace', type: 'nominal', sort: traces, title: null, axis: { labelLimit: 320, labelFontSize: 8 } },
        x: {
          field: 'share',
          type: 'quantitative',
          stack: 'zero',
          title: 'share of active-context tokens',
          axis: { format: '%' },
          scale: { domain: [0, 1] },
        },
        color: {
          field: 'evidence',
          type: 'nominal',
          title: null,
          scale: { domain: [...CHART_SERIES], range: distinctColours(CHART_SERIES.length) },
          legend: { orient: 'bottom', columns: 1, labelLimit: 480 },
        },
        order: { field: 'rank', sort: 'ascending' },
        tooltip: [
          { field: 'trace' },
          { field: 'class' },
          { field: 'evidence' },
          { field: 'tokens' },
          { field: 'share', format: '.1%' },
        ],
      },
    },
  };
}

/** What every condition did to the imported traces: decisions and tokens only, since nothing can score them. */
export function conditionsMarkdown(summaries: readonly Summary[]): string {
  const rows = summaries.map(
    (s) =>
      `| \`${s.condition}\` | ${s.layer} | ${s.rung ?? '-'} | ${s.decisions.prune} / ${s.decisions.defer} / ${s.decisions.abstain} / ${s.decisions.keep} | ${s.tokens.raw} | ${s.tokens.removed} | ${s.tokens.placeholder} | ${s.tokens.final} | ${s.refetchAlerts} |`,
  );
  const reason = summaries[0]?.precision.numerator === null ? summaries[0].precision.reason : 'scored';
  return [
    '# Every condition over the imported traces',
    '',
    `Decisions and token accounting only. Precision, false-prune rate and coverage are undefined here: ${reason}.`,
    'Removing tokens from a trace nobody labelled says how aggressive a condition is, not whether it is right.',
    '',
    '| condition | layer | rung | prune / defer / abstain / keep | raw tokens | removed | placeholder | final | re-fetch alerts |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

export function conditionsCsv(summaries: readonly Summary[]): string {
  const head = [
    'condition',
    'layer',
    'rung',
    'prune',
    'defer',
    'abstain',
    'keep',
    'raw_tokens',
    'removed_tokens',
    'placeholder_tokens',
    'final_tokens',
    'refetch_alerts',
    'precision',
  ];
  const rows = summaries.map((s) => [
    s.condition,
    s.layer,
    s.rung ?? '',
    s.decisions.prune,
    s.decisions.defer,
    s.decisions.abstain,
    s.decisions.keep,
    s.tokens.raw,
    s.tokens.removed,
    s.tokens.placeholder,
    s.tokens.final,
    s.refetchAlerts,
    s.precision.value === null ? 'undefined' : s.precision.value.toFixed(6),
  ]);
  return csvTable([head, ...rows]);
}
