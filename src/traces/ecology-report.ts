// The ecology's table (Markdown and CSV) and chart spec, plus the table of what every condition did to the same
// traces. All text is built from the numbers alone, so the same traces always give the same bytes.
import { csvTable } from '../artifacts/csv.js';
import type { Summary } from '../artifacts/schema.js';
import { CANDIDATE_CLASSES, REGENERABILITY_CLASSES, type TraceEcology, type Volume } from './ecology.js';

export const ECOLOGY_HEADER = [
  'These are candidate volumes, not safe removals, and not labels.',
  'Each figure is the share of the active context\'s tokens (o200k_base, at the trace\'s last prune point) that a',
  'class of pruning candidate would touch, as the mechanism for that class finds it eligible; "undecided" is where',
  'the mechanism applies but the record lacks the evidence it needs (an unknown source version, unparsed coverage).',
  'No obligation was checked and no oracle exists: a share says how much there is to decide about, not how much',
  'may safely go. Classes overlap, so shares do not add up; "any class" counts each token once, and "the rest" is',
  'what no class finds eligible. The regenerability columns say how much the record would refuse to evict.',
].join('\n');

const share = (v: Volume, of: number): string => (of === 0 ? 'undefined (0 tokens)' : `${((100 * v.tokens) / of).toFixed(1)}% (${v.tokens})`);

export function ecologyMarkdown(rows: readonly TraceEcology[], total: TraceEcology): string {
  const head = ['trace', 'format', 'items', 'tokens', ...CANDIDATE_CLASSES.map((c) => c.label), 'any class', 'the rest'];
  const line = (t: TraceEcology) => [
    t.fixture === 'total' ? '**total**' : `\`${t.fixture}\``, t.format, String(t.items), String(t.contextTokens),
    ...CANDIDATE_CLASSES.map((c) => {
      const v = t.candidates[c.key];
      return v.undecided.tokens > 0 ? `${share(v.eligible, t.contextTokens)}; undecided ${share(v.undecided, t.contextTokens)}` : share(v.eligible, t.contextTokens);
    }),
    share(t.anyClass, t.contextTokens), share(t.rest, t.contextTokens),
  ];
  const regenHead = ['trace', 'tokens', ...REGENERABILITY_CLASSES.map((r) => r.label)];
  const regenLine = (t: TraceEcology) => [
    t.fixture === 'total' ? '**total**' : `\`${t.fixture}\``, String(t.contextTokens),
    ...REGENERABILITY_CLASSES.map((r) => share(t.regenerability[r.key], t.contextTokens)),
  ];
  const table = (h: string[], body: string[][]) => [`| ${h.join(' | ')} |`, `|${h.map(() => '---').join('|')}|`, ...body.map((b) => `| ${b.join(' | ')} |`)].join('\n');
  return [
    '# Ecological gate: candidate volumes in recorded sessions',
    '',
    ECOLOGY_HEADER,
    '',
    '## Candidate classes (share of active-context tokens, with token counts)',
    '',
    table(head, [...rows.map(line), line(total)]),
    '',
    '## What the regenerability record distinguishes',
    '',
    table(regenHead, [...rows.map(regenLine), regenLine(total)]),
    '',
  ].join('\n');
}

/** One row per trace and class: tokens and items with their denominator, so any share can be recomputed. */
export function ecologyCsv(rows: readonly TraceEcology[], total: TraceEcology): string {
  const out: (string | number)[][] = [['trace', 'format', 'group', 'class', 'evidence', 'items', 'tokens', 'context_items', 'context_tokens', 'share']];
  const push = (t: TraceEcology, group: string, cls: string, evidence: string, v: Volume) =>
    out.push([t.fixture, t.format, group, cls, evidence, v.items, v.tokens, t.items, t.contextTokens, t.contextTokens === 0 ? '' : (v.tokens / t.contextTokens).toFixed(6)]);
  for (const t of [...rows, total]) {
    for (const c of CANDIDATE_CLASSES) {
      push(t, 'candidate', c.key, 'eligible', t.candidates[c.key].eligible);
      push(t, 'candidate', c.key, 'undecided', t.candidates[c.key].undecided);
    }
    push(t, 'candidate', 'any-class', 'eligible', t.anyClass);
    push(t, 'candidate', 'rest', '-', t.rest);
    for (const r of REGENERABILITY_CLASSES) push(t, 'regenerability', r.key, '-', t.regenerability[r.key]);
  }
  return csvTable(out);
}

export function ecologyChartSpec(rows: readonly TraceEcology[], total: TraceEcology): object {
  const values: { trace: string; class: string; share: number; tokens: number }[] = [];
  for (const t of [...rows, total]) {
    const of = t.contextTokens;
    const add = (label: string, v: Volume) => values.push({ trace: t.fixture, class: label, share: of === 0 ? 0 : v.tokens / of, tokens: v.tokens });
    for (const c of CANDIDATE_CLASSES) add(c.short, t.candidates[c.key].eligible);
    add('any class', t.anyClass);
    add('the rest', t.rest);
    for (const r of REGENERABILITY_CLASSES) add(r.short, t.regenerability[r.key]);
  }
  const order = [...CANDIDATE_CLASSES.map((c) => c.short), 'any class', 'the rest', ...REGENERABILITY_CLASSES.map((r) => r.short)];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Candidate volumes in recorded sessions (share of active-context tokens)', subtitle: 'Candidate volumes, not safe removals, and not labels. Classes overlap.' },
    width: 480,
    height: { step: 9 },
    background: 'white',
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'class', type: 'nominal', sort: order, title: null, axis: { labelLimit: 420 } },
      yOffset: { field: 'trace', type: 'nominal' },
      x: { field: 'share', type: 'quantitative', title: 'share of active-context tokens', axis: { format: '%' }, scale: { domain: [0, 1] } },
      color: { field: 'trace', type: 'nominal', title: 'trace', legend: { orient: 'bottom', columns: 2, labelLimit: 400 } },
      tooltip: [{ field: 'trace' }, { field: 'class' }, { field: 'tokens' }, { field: 'share', format: '.1%' }],
    },
  };
}

/** What every condition did to the imported traces: decisions and tokens only, since nothing can score them. */
export function conditionsMarkdown(summaries: readonly Summary[]): string {
  const rows = summaries.map((s) => `| \`${s.condition}\` | ${s.layer} | ${s.rung ?? '-'} | ${s.decisions.prune} / ${s.decisions.defer} / ${s.decisions.abstain} / ${s.decisions.keep} | ${s.tokens.raw} | ${s.tokens.removed} | ${s.tokens.placeholder} | ${s.tokens.final} | ${s.refetchAlerts} |`);
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
  const head = ['condition', 'layer', 'rung', 'prune', 'defer', 'abstain', 'keep', 'raw_tokens', 'removed_tokens', 'placeholder_tokens', 'final_tokens', 'refetch_alerts', 'precision'];
  const rows = summaries.map((s) => [s.condition, s.layer, s.rung ?? '', s.decisions.prune, s.decisions.defer, s.decisions.abstain, s.decisions.keep, s.tokens.raw, s.tokens.removed, s.tokens.placeholder, s.tokens.final, s.refetchAlerts, s.precision.value === null ? 'undefined' : s.precision.value.toFixed(6)]);
  return csvTable([head, ...rows]);
}
