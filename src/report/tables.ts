// The result tables as arquero tables, each written as CSV (every number in its own column, for machines) and
// Markdown (a proportion as numerator/denominator, value and Wilson interval in one cell, for readers).
// Undefined values (0/0) print as "undefined", never as 0 or 1.
import { from, type ColumnTable } from 'arquero';
import { caption, curveOf, isVariant, NO_FAMILY, SAFETY_THRESHOLDS, type Analysis, type BehaviourSideRow, type ConditionRow, type Proportion } from './analysis.js';
import { PROPOSED } from './comparisons.js';
import { COST_UNKNOWN } from './cost.js';
import type { BootstrapResult } from './stats.js';

export const UNDEFINED = 'undefined';

type Cell = string | number;
type Row = Record<string, Cell>;

export interface ReportTable {
  readonly name: string;
  readonly title: string;
  readonly notes: readonly string[];
  /** Machine columns (CSV). */
  readonly data: ColumnTable;
  /** Reader columns (Markdown). */
  readonly view: ColumnTable;
}

export function fixed(x: number | null, digits: number): string {
  return x === null ? UNDEFINED : x.toFixed(digits);
}

/** "28/29 = 0.966 [0.828, 0.994]", or "0/0 = undefined". */
export function formatProportion(p: Proportion): string {
  const base = `${p.numerator}/${p.denominator} = ${fixed(p.value, 3)}`;
  return p.value === null ? base : `${base} [${fixed(p.lo, 3)}, ${fixed(p.hi, 3)}]`;
}

export function formatInterval(r: BootstrapResult): string {
  return r.estimate === null ? UNDEFINED : `${fixed(r.estimate, 3)} [${fixed(r.lo, 3)}, ${fixed(r.hi, 3)}]`;
}

function propColumns(name: string, p: Proportion): Row {
  return {
    [`${name}_num`]: p.numerator, [`${name}_den`]: p.denominator,
    [name]: fixed(p.value, 6), [`${name}_lo`]: fixed(p.lo, 6), [`${name}_hi`]: fixed(p.hi, 6),
  };
}

function intervalColumns(name: string, r: BootstrapResult): Row {
  return { [name]: fixed(r.estimate, 6), [`${name}_lo`]: fixed(r.lo, 6), [`${name}_hi`]: fixed(r.hi, 6) };
}

function measureData(r: ConditionRow): Row {
  return {
    condition: r.condition, layer: r.layer, rung: r.rung ?? '', upper_risk: String(r.upperRisk),
    fixtures: r.fixtures, prune_points: r.prunePoints, prunes: r.prunes,
    ...propColumns('precision', r.precision), ...propColumns('false_prune_rate', r.falsePruneRate),
    ...propColumns('coverage', r.coverage), ...propColumns('abstention_rate', r.abstentionRate),
    ...propColumns('obligations_preserved', r.obligationsPreserved),
    ...intervalColumns('token_reduction', r.reduction), refetch_alerts: r.refetchAlerts,
  };
}

function measureView(r: ConditionRow): Row {
  return {
    condition: r.upperRisk ? `${r.condition} (upper-risk)` : r.condition,
    rung: r.rung === null ? '–' : String(r.rung),
    prunes: String(r.prunes),
    precision: formatProportion(r.precision),
    'false-prune rate': formatProportion(r.falsePruneRate),
    coverage: formatProportion(r.coverage),
    abstention: formatProportion(r.abstentionRate),
    'obligations preserved': formatProportion(r.obligationsPreserved),
    'token reduction': formatInterval(r.reduction),
    're-fetch alerts': String(r.refetchAlerts),
  };
}

function table(name: string, title: string, notes: readonly string[], data: readonly Row[], view: readonly Row[]): ReportTable {
  return { name, title, notes, data: from([...data]), view: from([...view]) };
}

function bootstrapNote(a: Analysis): string {
  return `Token reduction is 1 - final/raw pooled over fixtures, with a 95% percentile bootstrap over fixtures (seed ${a.seed}, ${a.iterations} iterations, as preregistered). Proportions carry 95% Wilson intervals; 0/0 is undefined.`;
}

export function buildTables(a: Analysis): ReportTable[] {
  const base = a.rows.filter((r) => !isVariant(r));
  const layerA = base.filter((r) => r.layer === 'control' || r.layer === 'A');
  const proposed = a.rows.find((r) => r.condition === PROPOSED);
  const comparators = [...base.filter((r) => r.layer === 'comparator'), ...(proposed ? [proposed] : [])];
  const tables: ReportTable[] = [];
  tables.push(table('layer-a', 'Layer A: each mechanism alone against raw', [bootstrapNote(a)], layerA.map(measureData), layerA.map(measureView)));
  tables.push(table('comparators', `Published comparators, with ${PROPOSED} for reference`, [bootstrapNote(a)], comparators.map(measureData), comparators.map(measureView)));

  tables.push(table(
    'ladder',
    'Layer B: the cumulative ladder, each step against the one before',
    ['Marginal columns are this ladder minus the previous one, on the same prune points.', bootstrapNote(a)],
    a.ladder.map((l) => ({
      ...measureData(l.row), previous: l.previous ?? '',
      marginal_reduction: l.marginal ? fixed(l.marginal.reduction, 6) : '', marginal_prunes: l.marginal?.prunes ?? '',
      marginal_true_prunes: l.marginal?.truePrunes ?? '', marginal_false_prunes: l.marginal?.falsePrunes ?? '',
      marginal_obligations_lost: l.marginal?.obligationsLost ?? '',
      removed_by: l.removedBy.map((e) => `${e.rule}:${e.items}`).join(' '),
    })),
    a.ladder.map((l) => ({
      ladder: l.condition,
      'removed by (items, net tokens)': l.removedBy.map((e) => `${e.step ?? '–'}. ${e.rule} (${e.items}, ${e.netTokensRemoved})`).join('; ') || 'nothing',
      'false-prune rate': formatProportion(l.row.falsePruneRate),
      coverage: formatProportion(l.row.coverage),
      'obligations preserved': formatProportion(l.row.obligationsPreserved),
      'token reduction': formatInterval(l.row.reduction),
      'Δ reduction': l.marginal ? fixed(l.marginal.reduction, 3) : '–',
      'Δ true / false prunes': l.marginal ? `${l.marginal.truePrunes >= 0 ? '+' : ''}${l.marginal.truePrunes} / ${l.marginal.falsePrunes >= 0 ? '+' : ''}${l.marginal.falsePrunes}` : '–',
      'Δ obligations lost': l.marginal ? String(l.marginal.obligationsLost) : '–',
    })),
  ));

  const rules = a.ladder.flatMap((l) => l.removedBy.map((e) => ({ ladder: l.condition, ...e })));
  tables.push(table(
    'ladder-rules',
    'Layer B: which rule removed what, in application order',
    ['Each removal is attributed to the one rule that made it; net tokens are item tokens minus placeholder tokens.'],
    rules.map((e) => ({ ladder: e.ladder, step: e.step ?? '', rule: e.rule, rung: e.rung ?? '', items: e.items, net_tokens_removed: e.netTokensRemoved })),
    rules.map((e) => ({ ladder: e.ladder, step: String(e.step ?? '–'), rule: e.rule, rung: e.rung === null ? '–' : String(e.rung), items: String(e.items), 'net tokens removed': String(e.netTokensRemoved) })),
  ));

  tables.push(table(
    'families',
    'Per scenario family',
    [`A fixture counts in every family it instantiates; fixtures that declare none are under "${NO_FAMILY}". Token reduction here is a point estimate.`],
    a.families.map((f) => ({
      family: f.family, condition: f.condition, fixtures: f.fixtures, prune_points: f.prunePoints,
      ...propColumns('false_prune_rate', f.falsePruneRate), ...propColumns('coverage', f.coverage),
      ...propColumns('obligations_preserved', f.obligationsPreserved), token_reduction: fixed(f.reduction, 6),
    })),
    a.families.map((f) => ({
      family: f.family, condition: f.condition, fixtures: String(f.fixtures),
      'false-prune rate': formatProportion(f.falsePruneRate), coverage: formatProportion(f.coverage),
      'obligations preserved': formatProportion(f.obligationsPreserved), 'token reduction': fixed(f.reduction, 3),
    })),
  ));

  const cost = (r: ConditionRow) => (r.cost === null ? COST_UNKNOWN : r.cost.toFixed(4));
  tables.push(table(
    'tokens',
    'Token accounting: raw, removed, placeholders, overhead and final context',
    ['final = raw - removed + placeholder + overhead, summed over prune points. Cost is in US dollars where a provider was called.', bootstrapNote(a)],
    a.rows.map((r) => ({ condition: r.condition, ...r.tokens, ...intervalColumns('token_reduction', r.reduction), cost_usd: cost(r) })),
    a.rows.map((r) => ({
      condition: r.condition, raw: String(r.tokens.raw), removed: String(r.tokens.removed), placeholder: String(r.tokens.placeholder),
      overhead: String(r.tokens.overhead), final: String(r.tokens.final), 'token reduction': formatInterval(r.reduction), cost: cost(r),
    })),
  ));

  const outcomeNote = `Outcomes per prune point: ${a.pointOutcomes.map((o) => `${o.id}: ${o.definition}`).join('; ')}.`;
  const pFixed = (p: number | null) => (p === null ? '' : p.toFixed(6));
  tables.push(table(
    'comparisons',
    'Preregistered comparisons (the Holm family), paired on the same prune points',
    [
      `Each comparison, its outcome per prune point and the family are read from ${a.plan.file}. b: points where only the candidate has the outcome; c: only the reference.`,
      `Exact McNemar tests (two-sided), Holm-corrected across the ${a.comparisons.length} preregistered comparisons; significant: Holm p <= alpha = ${a.alpha}.`,
      outcomeNote,
    ],
    a.comparisons.map((c) => ({
      comparison: c.id, hypothesis: c.hypothesis, candidate: c.candidate, reference: c.reference, outcome: c.outcome, paired_points: c.pairedPoints,
      b: c.test?.b ?? '', c: c.test?.c ?? '', p: pFixed(c.test?.p ?? null), p_holm: pFixed(c.pHolm),
      significant: c.significant === null ? UNDEFINED : String(c.significant), missing: c.missing ?? '',
    })),
    a.comparisons.map((c) => ({
      comparison: `${c.id} (${c.hypothesis})`, 'candidate vs reference': `${c.candidate} vs ${c.reference}`, outcome: c.outcome,
      'paired points': String(c.pairedPoints),
      'b / c': c.test ? `${c.test.b} / ${c.test.c}` : '–',
      p: c.test ? c.test.p.toPrecision(3) : 'not run', 'Holm p': c.pHolm === null ? 'not run' : c.pHolm.toPrecision(3),
      [`significant at ${a.alpha}`]: c.significant === null ? `undefined (${c.missing ?? 'not run'})` : c.significant ? 'yes' : 'no',
      expected: c.expected,
    })),
  ));

  tables.push(table(
    'comparisons-secondary',
    'Secondary comparisons (descriptive; not in the Holm family)',
    [
      'Each mechanism against raw, each ladder step against the one before, prediction and each comparator against the conservative ladder. Not preregistered as tests: p-values are unadjusted and no criterion reads them.',
      'Δ reduction: candidate minus reference, paired percentile bootstrap over fixtures (the same resampled fixtures for both). b: points where only the candidate has the outcome; c: only the reference.',
      outcomeNote,
      bootstrapNote(a),
    ],
    a.secondary.map((c) => ({
      comparison: c.id, candidate: c.candidate, reference: c.reference, paired_points: c.pairedPoints, paired_fixtures: c.pairedFixtures,
      ...intervalColumns('reduction_difference', c.reductionDifference),
      ...Object.fromEntries(c.tests.flatMap((t) => [[`${t.outcome}_b`, t.b], [`${t.outcome}_c`, t.c], [`${t.outcome}_p_unadjusted`, t.p.toFixed(6)]])),
    })),
    a.secondary.map((c) => ({
      comparison: `${c.candidate} vs ${c.reference}`, 'paired points': String(c.pairedPoints),
      'Δ reduction': formatInterval(c.reductionDifference),
      ...Object.fromEntries(c.tests.map((t) => [t.outcome, `b=${t.b}, c=${t.c}, p=${t.p.toFixed(3)} (unadjusted)`])),
    })),
  ));

  tables.push(table(
    'frontier',
    'Safety at the achieved reduction, every condition and sweep variant',
    ['A curve is a base condition with its parameter sweep; other conditions are single points.', bootstrapNote(a)],
    a.rows.map((r) => ({
      condition: r.condition, curve: curveOf(r), parameter: r.sweep?.parameter ?? '', value: r.sweep?.value ?? '',
      ...intervalColumns('token_reduction', r.reduction), ...propColumns('false_prune_rate', r.falsePruneRate),
      ...propColumns('obligations_preserved', r.obligationsPreserved),
    })),
    a.rows.map((r) => ({
      condition: r.condition, parameter: r.sweep ? `${r.sweep.parameter} = ${r.sweep.value}` : '–',
      'token reduction': formatInterval(r.reduction), 'false-prune rate': formatProportion(r.falsePruneRate),
      'obligations preserved': formatProportion(r.obligationsPreserved),
    })),
  ));

  const curves = a.thresholds;
  tables.push(table(
    'thresholds',
    `Reduction at a fixed safety threshold (false-prune rate at most ${SAFETY_THRESHOLDS.map((t) => `${t * 100}%`).join(', ')})`,
    ['For each curve, the variant with the largest token reduction whose pooled false-prune rate is at most the threshold; a condition that prunes nothing meets every threshold. "none" when no variant does.'],
    curves.map((t) => ({
      curve: t.curve, threshold: t.threshold, variants: t.variants, best: t.best?.condition ?? 'none',
      token_reduction: t.best ? fixed(t.best.reduction.estimate, 6) : UNDEFINED,
      false_prune_rate: t.best ? fixed(t.best.falsePruneRate.value, 6) : UNDEFINED,
    })),
    curves.map((t) => ({
      curve: t.curve, 'FPR at most': `${t.threshold * 100}%`, 'variants tried': String(t.variants), 'best variant': t.best?.condition ?? 'none',
      'token reduction': t.best ? formatInterval(t.best.reduction) : UNDEFINED,
      'false-prune rate': t.best ? formatProportion(t.best.falsePruneRate) : UNDEFINED,
    })),
  ));
  tables.push(behaviourTable(a));
  return tables;
}

function sideColumns(prefix: string, s: BehaviourSideRow): Row {
  return {
    ...propColumns(`${prefix}_task_success`, s.taskSuccess), ...propColumns(`${prefix}_constraint_violations`, s.constraintViolations),
    ...propColumns(`${prefix}_unsupported_claims`, s.unsupportedClaims), ...propColumns(`${prefix}_recovery_failures`, s.recoveryFailures),
    [`${prefix}_errors`]: s.errors,
  };
}

/** Behaviour per condition; the reader is a column of every row (the load step refuses results of mixed readers). */
function behaviourTable(a: Analysis): ReportTable {
  const readers = [...new Set(a.behaviour.map((b) => b.reader))];
  return table(
    'behaviour',
    `Behaviour: probes answered from the full and the pruned context (reader: ${readers.join(', ') || 'none'})`,
    [
      'Task success: probes answered correctly over probes. Constraint violations: probes on a user constraint answered wrongly, over such probes. Unsupported claims: answers the given context does not support, over probes. Recovery failures: probes whose facts left the context and could not be recovered by pointer or re-read, over such probes (judged structurally, from the scoring, whatever the reader). Caused failures: probes the full context answers correctly and the pruned context does not, over probes the full context answers correctly (paired, same probes and epochs). Errors: failed or unparseable model calls, counted as wrong answers.',
      'Constraint violations, unsupported claims and recovery failures are of the pruned context; the CSV also has the full context\'s. Proportions carry 95% Wilson intervals; 0/0 is undefined.',
    ],
    a.behaviour.map((b) => ({
      condition: b.condition, reader: b.reader, epochs: b.epochs, probes: b.probes,
      ...sideColumns('full', b.full), ...sideColumns('pruned', b.pruned), ...propColumns('caused_failures', b.causedFailures),
    })),
    a.behaviour.map((b) => ({
      condition: b.condition, reader: b.reader, probes: String(b.probes),
      'task success, full': formatProportion(b.full.taskSuccess), 'task success, pruned': formatProportion(b.pruned.taskSuccess),
      'caused failures (paired)': formatProportion(b.causedFailures),
      'constraint violations': formatProportion(b.pruned.constraintViolations),
      'unsupported claims': formatProportion(b.pruned.unsupportedClaims),
      'recovery failures': formatProportion(b.pruned.recoveryFailures),
      errors: String(b.full.errors + b.pruned.errors),
    })),
  );
}

export function tableCsv(t: ReportTable): string {
  return t.data.toCSV();
}

export function tableMarkdown(t: ReportTable, a: Analysis): string {
  return `# ${t.title}\n\n${caption(a)}.\n\n${t.view.toMarkdown()}\n${t.notes.map((n) => `${n}\n`).join('\n')}`;
}
