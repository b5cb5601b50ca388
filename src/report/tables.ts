// The result tables as arquero tables, each written as CSV (every number in its own column, for machines) and
// Markdown (a proportion as numerator/denominator, value and fixture-cluster bootstrap interval in one cell, for
// readers). Every precision and false-prune rate stands beside the base rate it must be read against.
// Undefined values (0/0) print as "undefined", never as 0 or 1.
import { from, type ColumnTable } from 'arquero';
import {
  caption,
  curveOf,
  isVariant,
  NO_FAMILY,
  SAFETY_THRESHOLDS,
  type Analysis,
  type BehaviourSideRow,
  type ConditionRow,
  type Proportion,
} from './analysis.js';
import { COST_UNKNOWN } from './cost.js';
import { markdownTable } from './markdown.js';
import type { BootstrapResult } from './stats.js';

export const UNDEFINED = 'undefined';

/** The thresholds table's best variant where no variant of the curve meets the threshold. */
export const NONE_QUALIFIES = 'none qualifies';

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

/**
 * A number to `digits` decimals; "undefined" for null. A value that rounds to zero prints as 0.000, never "-0.000":
 * a difference of -0.00002 is no difference at this precision, and a minus sign would say it is a loss.
 */
export function fixed(x: number | null, digits: number): string {
  if (x === null) return UNDEFINED;
  const s = x.toFixed(digits);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}

/** "28/29 = 0.966", or "0/0 = undefined": a count ratio as every table prints it. */
export function formatRatio(numerator: number, denominator: number): string {
  return `${numerator}/${denominator} = ${fixed(denominator === 0 ? null : numerator / denominator, 3)}`;
}

/** "28/29 = 0.966 [0.828, 0.994]", or "0/0 = undefined". */
export function formatProportion(p: Proportion): string {
  const base = `${p.numerator}/${p.denominator} = ${fixed(p.value, 3)}`;
  return p.value === null ? base : `${base} [${fixed(p.lo, 3)}, ${fixed(p.hi, 3)}]`;
}

export function formatInterval(r: BootstrapResult): string {
  return r.estimate === null ? UNDEFINED : `${fixed(r.estimate, 3)} [${fixed(r.lo, 3)}, ${fixed(r.hi, 3)}]`;
}

/** A proportion's CSV columns: numerator, denominator, value and its interval. */
export function propColumns(name: string, p: Proportion): Row {
  return {
    [`${name}_num`]: p.numerator,
    [`${name}_den`]: p.denominator,
    [name]: fixed(p.value, 6),
    [`${name}_lo`]: fixed(p.lo, 6),
    [`${name}_hi`]: fixed(p.hi, 6),
  };
}

/**
 * A p-value as a CSV column: six significant digits, so an exact p-value of 1e-45 is written as such, never rounded
 * to 0.000000 (no exact test here gives a p-value of 0); empty when the test was not run.
 */
export function pColumn(p: number | null): string {
  return p === null ? '' : p.toPrecision(6);
}

function intervalColumns(name: string, r: BootstrapResult): Row {
  return { [name]: fixed(r.estimate, 6), [`${name}_lo`]: fixed(r.lo, 6), [`${name}_hi`]: fixed(r.hi, 6) };
}

function measureData(r: ConditionRow): Row {
  return {
    condition: r.condition,
    layer: r.layer,
    rung: r.rung ?? '',
    upper_risk: String(r.upperRisk),
    exploratory: String(r.exploratory),
    fixtures: r.fixtures,
    prune_points: r.prunePoints,
    prunes: r.prunes,
    ...propColumns('harm_rate', r.harmRate),
    ...propColumns('obligations_lost', r.obligationsLost),
    ...propColumns('base_rate', r.baseRate),
    ...propColumns('precision', r.precision),
    ...propColumns('false_prune_rate', r.falsePruneRate),
    ...propColumns('coverage', r.coverage),
    ...propColumns('abstention_rate', r.abstentionRate),
    ...propColumns('obligations_preserved', r.obligationsPreserved),
    ...intervalColumns('token_reduction', r.reduction),
    refetch_alerts: r.refetchAlerts,
  };
}

/** A name as a table shows it, marked when the condition is stamped exploratory alone (the preregistration does not name it). */
export function exploratoryLabel(name: string, exploratory: boolean): string {
  return exploratory ? `${name} (exploratory)` : name;
}

/** A condition's name as tables show it, with what a reader must know before reading its figures. */
export function conditionLabel(r: Pick<ConditionRow, 'condition' | 'upperRisk' | 'exploratory'>): string {
  return `${r.condition}${r.upperRisk ? ' (upper-risk)' : ''}${r.exploratory ? ' (exploratory)' : ''}`;
}

function measureView(r: ConditionRow): Row {
  return {
    condition: conditionLabel(r),
    rung: r.rung === null ? '–' : String(r.rung),
    prunes: String(r.prunes),
    'harm rate': formatProportion(r.harmRate),
    'obligations lost': formatProportion(r.obligationsLost),
    'base rate': formatProportion(r.baseRate),
    precision: formatProportion(r.precision),
    'false-prune rate': formatProportion(r.falsePruneRate),
    coverage: formatProportion(r.coverage),
    abstention: formatProportion(r.abstentionRate),
    'obligations preserved': formatProportion(r.obligationsPreserved),
    'token reduction': formatInterval(r.reduction),
    're-fetch alerts': String(r.refetchAlerts),
  };
}

/** How the comparisons are paired, as the preregistration says. */
function pairingNote(a: Analysis): string {
  return a.pairedUnit === 'fixture'
    ? "Paired by fixture: per fixture, the outcome's count under the candidate minus under the reference, tested by the exact sign-flip (paired permutation) test over fixtures, since fixtures, not prune points, are independent. b: fixtures where the candidate has more; c: fewer."
    : "Paired on the same prune points, exact McNemar tests (v1: treats a fixture's prune points as independent). b: points where only the candidate has the outcome; c: only the reference.";
}

function table(
  name: string,
  title: string,
  notes: readonly string[],
  data: readonly Row[],
  view: readonly Row[],
): ReportTable {
  return { name, title, notes, data: from([...data]), view: from([...view]) };
}

function bootstrapNote(a: Analysis): string {
  return `Every rate is pooled over fixtures (sum of numerators over sum of denominators) with a 95% percentile fixture-cluster bootstrap (fixtures resampled with their decisions, prune points and items; seed ${a.seed}, ${a.iterations} iterations); token reduction is 1 - final/raw. 0/0 is undefined.`;
}

const MEASURES_NOTE =
  "Harm rate: necessary units removed over necessary units in context (a necessary item, a partial item's residue, each of a redundant group's keep slots), each (fixture, unit) counted once, harmed if removed at any prune point where it is necessary. Obligations lost: declared obligations lost at any prune point, each (fixture, obligation) counted once. Base rate: the oracle's removable share among the items decided on, the precision of pruning everything; read precision and the false-prune rate (a secondary column) against it.";

export function buildTables(a: Analysis): ReportTable[] {
  const base = a.rows.filter((r) => !isVariant(r));
  const layerA = base.filter((r) => r.layer === 'control' || r.layer === 'A');
  const proposed = a.rows.find((r) => r.condition === a.proposed);
  const comparators = [...base.filter((r) => r.layer === 'comparator'), ...(proposed ? [proposed] : [])];
  const tables: ReportTable[] = [];
  const byCorpus = a.corpora.flatMap((c) => c.rows.filter((r) => !isVariant(r)).map((r) => ({ corpus: c.corpus, r })));
  tables.push(
    table(
      'measures',
      'Every condition by corpus: harm rate, obligations lost and base rate first',
      [
        'Canonical, generated and pooled fixtures are reported apart: the corpus column says which.',
        MEASURES_NOTE,
        bootstrapNote(a),
      ],
      byCorpus.map(({ corpus, r }) => ({ corpus, ...measureData(r) })),
      byCorpus.map(({ corpus, r }) => ({ corpus, ...measureView(r) })),
    ),
  );
  tables.push(
    table(
      'layer-a',
      'Layer A: each mechanism alone against raw',
      [MEASURES_NOTE, bootstrapNote(a)],
      layerA.map(measureData),
      layerA.map(measureView),
    ),
  );
  tables.push(
    table(
      'comparators',
      `Published comparators${a.proposed ? `, with ${a.proposed} for reference` : ''}`,
      [MEASURES_NOTE, bootstrapNote(a)],
      comparators.map(measureData),
      comparators.map(measureView),
    ),
  );

  tables.push(
    table(
      'ladder',
      'Layer B: the cumulative ladder, each step against the one before',
      [
        'Marginal columns (Δ) are this ladder minus the ladder it extends, on the same fixtures: a ladder minus the ladder one rung below it, a timing variant (ladder~timing) minus the ladder it times. Δ obligations lost counts declared obligations lost, each (fixture, obligation) once, as the obligations-lost column does.',
        bootstrapNote(a),
      ],
      a.ladder.map((l) => ({
        ...measureData(l.row),
        previous: l.previous ?? '',
        marginal_reduction: l.marginal ? fixed(l.marginal.reduction, 6) : '',
        marginal_prunes: l.marginal?.prunes ?? '',
        marginal_true_prunes: l.marginal?.truePrunes ?? '',
        marginal_false_prunes: l.marginal?.falsePrunes ?? '',
        marginal_obligations_lost: l.marginal?.obligationsLost ?? '',
        removed_by: l.removedBy.map((e) => `${e.rule}:${e.items}`).join(' '),
      })),
      a.ladder.map((l) => ({
        ladder: l.condition,
        'removed by (items, net tokens)':
          l.removedBy.map((e) => `${e.step ?? '–'}. ${e.rule} (${e.items}, ${e.netTokensRemoved})`).join('; ') ||
          'nothing',
        'harm rate': formatProportion(l.row.harmRate),
        'obligations lost': formatProportion(l.row.obligationsLost),
        'base rate': formatProportion(l.row.baseRate),
        'false-prune rate': formatProportion(l.row.falsePruneRate),
        coverage: formatProportion(l.row.coverage),
        'obligations preserved': formatProportion(l.row.obligationsPreserved),
        'token reduction': formatInterval(l.row.reduction),
        against: l.previous ?? '–',
        'Δ reduction': l.marginal ? fixed(l.marginal.reduction, 3) : '–',
        'Δ true / false prunes': l.marginal
          ? `${l.marginal.truePrunes >= 0 ? '+' : ''}${l.marginal.truePrunes} / ${l.marginal.falsePrunes >= 0 ? '+' : ''}${l.marginal.falsePrunes}`
          : '–',
        'Δ obligations lost': l.marginal ? String(l.marginal.obligationsLost) : '–',
      })),
    ),
  );

  const rules = a.ladder.flatMap((l) => l.removedBy.map((e) => ({ ladder: l.condition, ...e })));
  tables.push(
    table(
      'ladder-rules',
      'Layer B: which rule removed what, in application order',
      ['Each removal is attributed to the one rule that made it; net tokens are item tokens minus placeholder tokens.'],
      rules.map((e) => ({
        ladder: e.ladder,
        step: e.step ?? '',
        rule: e.rule,
        rung: e.rung ?? '',
        items: e.items,
        net_tokens_removed: e.netTokensRemoved,
      })),
      rules.map((e) => ({
        ladder: e.ladder,
        step: String(e.step ?? '–'),
        rule: e.rule,
        rung: e.rung === null ? '–' : String(e.rung),
        items: String(e.items),
        'net tokens removed': String(e.netTokensRemoved),
      })),
    ),
  );

  tables.push(
    table(
      'families',
      'Per scenario family, by the episode that produced each item',
      [
        `Removals, false prunes and necessary units are attributed to the family of the episode the item belongs to (the oracle's episodes); items in no episode, and fixtures declaring no family, count under "${NO_FAMILY}"; a fixture whose oracle declares no episodes (a canonical one) attributes every item to its first family.`,
        "Base rate: the family's removable share among its candidates. Obligations and tokens are not attributed to families.",
        bootstrapNote(a),
      ],
      a.families.map((f) => ({
        family: f.family,
        condition: f.condition,
        exploratory: String(f.exploratory),
        fixtures: f.fixtures,
        prunes: f.prunes,
        ...propColumns('harm_rate', f.harmRate),
        ...propColumns('base_rate', f.baseRate),
        ...propColumns('false_prune_rate', f.falsePruneRate),
        ...propColumns('coverage', f.coverage),
      })),
      a.families.map((f) => ({
        family: f.family,
        condition: exploratoryLabel(f.condition, f.exploratory),
        fixtures: String(f.fixtures),
        'harm rate': formatProportion(f.harmRate),
        'base rate': formatProportion(f.baseRate),
        'false-prune rate': formatProportion(f.falsePruneRate),
        coverage: formatProportion(f.coverage),
      })),
    ),
  );

  const cost = (r: ConditionRow) => (r.cost === null ? COST_UNKNOWN : r.cost.toFixed(4));
  tables.push(
    table(
      'tokens',
      'Token accounting: raw, removed, placeholders, overhead and final context',
      [
        'final = raw - removed + placeholder, summed over prune points; overhead (the tokens a policy spent deciding) is spent beside the context, not in it, and is not part of final or of the token reduction. Cost is in US dollars where a provider was called.',
        bootstrapNote(a),
      ],
      a.rows.map((r) => ({
        condition: r.condition,
        exploratory: String(r.exploratory),
        ...r.tokens,
        ...intervalColumns('token_reduction', r.reduction),
        cost_usd: cost(r),
      })),
      a.rows.map((r) => ({
        condition: exploratoryLabel(r.condition, r.exploratory),
        raw: String(r.tokens.raw),
        removed: String(r.tokens.removed),
        placeholder: String(r.tokens.placeholder),
        overhead: String(r.tokens.overhead),
        final: String(r.tokens.final),
        'token reduction': formatInterval(r.reduction),
        cost: cost(r),
      })),
    ),
  );

  const outcomeNote = `Outcomes per prune point: ${a.pointOutcomes.map((o) => `${o.id}: ${o.definition}`).join('; ')}.`;
  const pFixed = pColumn;
  tables.push(
    table(
      'comparisons',
      'Preregistered comparisons (the Holm family), paired',
      [
        `Each comparison, its outcome and the family are read from ${a.plan.file}. ${pairingNote(a)}`,
        `Two-sided tests, Holm-corrected across the ${a.comparisons.length} preregistered comparisons; significant: Holm p <= alpha = ${a.alpha}.`,
        outcomeNote,
      ],
      a.comparisons.map((c) => ({
        comparison: c.id,
        hypothesis: c.hypothesis,
        candidate: c.candidate,
        reference: c.reference,
        outcome: c.outcome,
        unit: c.test?.unit ?? '',
        paired_points: c.pairedPoints,
        paired_fixtures: c.pairedFixtures,
        b: c.test?.b ?? '',
        c: c.test?.c ?? '',
        p: pFixed(c.test?.p ?? null),
        p_holm: pFixed(c.pHolm),
        significant: c.significant === null ? UNDEFINED : String(c.significant),
        missing: c.missing ?? '',
      })),
      a.comparisons.map((c) => ({
        comparison: `${c.id} (${c.hypothesis})`,
        'candidate vs reference': `${c.candidate} vs ${c.reference}`,
        outcome: c.outcome,
        paired: c.test?.unit === 'fixture' ? `${c.pairedFixtures} fixtures` : `${c.pairedPoints} points`,
        'b / c': c.test ? `${c.test.b} / ${c.test.c}` : '–',
        p: c.test ? c.test.p.toPrecision(3) : 'not run',
        'Holm p': c.pHolm === null ? 'not run' : c.pHolm.toPrecision(3),
        [`significant at ${a.alpha}`]:
          c.significant === null ? `undefined (${c.missing ?? 'not run'})` : c.significant ? 'yes' : 'no',
        expected: c.expected,
      })),
    ),
  );

  tables.push(
    table(
      'comparisons-secondary',
      'Secondary comparisons (descriptive; not in the Holm family)',
      [
        'Each mechanism against raw, each ladder step against the one before, prediction and each comparator against the conservative ladder. Not preregistered as tests: p-values are unadjusted and no criterion reads them.',
        `Δ reduction, Δ harm rate: candidate minus reference, paired percentile bootstrap over fixtures (the same resampled fixtures for both). ${pairingNote(a)}`,
        outcomeNote,
        bootstrapNote(a),
      ],
      a.secondary.map((c) => ({
        comparison: c.id,
        candidate: c.candidate,
        reference: c.reference,
        paired_points: c.pairedPoints,
        paired_fixtures: c.pairedFixtures,
        ...intervalColumns('reduction_difference', c.reductionDifference),
        ...intervalColumns('harm_rate_difference', c.harmDifference),
        ...Object.fromEntries(
          c.tests.flatMap((t) => [
            [`${t.outcome}_b`, t.b],
            [`${t.outcome}_c`, t.c],
            [`${t.outcome}_p_unadjusted`, pColumn(t.p)],
          ]),
        ),
      })),
      a.secondary.map((c) => ({
        comparison: `${c.candidate} vs ${c.reference}`,
        // What the tests pair: fixtures under v2's fixture pairing, prune points under v1's McNemar.
        [a.pairedUnit === 'fixture' ? 'paired fixtures' : 'paired points']: String(
          a.pairedUnit === 'fixture' ? c.pairedFixtures : c.pairedPoints,
        ),
        'Δ reduction': formatInterval(c.reductionDifference),
        'Δ harm rate': formatInterval(c.harmDifference),
        ...Object.fromEntries(
          c.tests.map((t) => [t.outcome, `b=${t.b}, c=${t.c}, p=${t.p.toPrecision(3)} (unadjusted)`]),
        ),
      })),
    ),
  );

  tables.push(
    table(
      'frontier',
      'Safety at the achieved reduction, every condition and sweep variant',
      ['A curve is a base condition with its parameter sweep; other conditions are single points.', bootstrapNote(a)],
      a.rows.map((r) => ({
        condition: r.condition,
        exploratory: String(r.exploratory),
        curve: curveOf(r),
        parameter: r.sweep?.parameter ?? '',
        value: r.sweep?.value ?? '',
        ...intervalColumns('token_reduction', r.reduction),
        ...propColumns('harm_rate', r.harmRate),
        ...propColumns('obligations_lost', r.obligationsLost),
        ...propColumns('base_rate', r.baseRate),
        ...propColumns('false_prune_rate', r.falsePruneRate),
      })),
      a.rows.map((r) => ({
        condition: exploratoryLabel(r.condition, r.exploratory),
        parameter: r.sweep ? `${r.sweep.parameter} = ${r.sweep.value}` : '–',
        'token reduction': formatInterval(r.reduction),
        'harm rate': formatProportion(r.harmRate),
        'obligations lost': formatProportion(r.obligationsLost),
        'base rate': formatProportion(r.baseRate),
        'false-prune rate': formatProportion(r.falsePruneRate),
      })),
    ),
  );

  const curves = a.thresholds;
  // A curve is exploratory when its base condition is (the preregistration does not name it).
  const curveExploratory = (curve: string) => a.rows.find((r) => r.condition === curve)?.exploratory ?? false;
  tables.push(
    table(
      'thresholds',
      `Reduction at a fixed safety threshold (harm rate at most ${SAFETY_THRESHOLDS.map((t) => `${t * 100}%`).join(', ')})`,
      [
        'For each curve, the variant with the largest token reduction whose pooled harm rate (necessary units removed over necessary units, once per fixture) is at most the threshold; a condition that removes no necessary unit meets every threshold. "none qualifies" when no variant does (its figures are then left blank: there is no variant to give them, which is not a 0/0). The harm rate, not the false-prune rate among removals, since the latter falls as the base rate rises.',
        bootstrapNote(a),
      ],
      curves.map((t) => ({
        curve: t.curve,
        exploratory: String(curveExploratory(t.curve)),
        threshold: t.threshold,
        variants: t.variants,
        best: t.best?.condition ?? NONE_QUALIFIES,
        // Empty, not "undefined" (which is a 0/0): with no variant there is no figure to give.
        token_reduction: t.best ? fixed(t.best.reduction.estimate, 6) : '',
        harm_rate: t.best ? fixed(t.best.harmRate.value, 6) : '',
        base_rate: t.best ? fixed(t.best.baseRate.value, 6) : '',
        false_prune_rate: t.best ? fixed(t.best.falsePruneRate.value, 6) : '',
      })),
      curves.map((t) => ({
        curve: exploratoryLabel(t.curve, curveExploratory(t.curve)),
        'harm rate at most': `${t.threshold * 100}%`,
        'variants tried': String(t.variants),
        'best variant': t.best?.condition ?? NONE_QUALIFIES,
        'token reduction': t.best ? formatInterval(t.best.reduction) : '–',
        'harm rate': t.best ? formatProportion(t.best.harmRate) : '–',
        'base rate': t.best ? formatProportion(t.best.baseRate) : '–',
        'false-prune rate': t.best ? formatProportion(t.best.falsePruneRate) : '–',
      })),
    ),
  );
  tables.push(behaviourTable(a));
  return tables;
}

function sideColumns(prefix: string, s: BehaviourSideRow): Row {
  return {
    ...propColumns(`${prefix}_task_success`, s.taskSuccess),
    ...propColumns(`${prefix}_constraint_violations`, s.constraintViolations),
    ...propColumns(`${prefix}_unsupported_claims`, s.unsupportedClaims),
    ...propColumns(`${prefix}_recovery_failures`, s.recoveryFailures),
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
      "Constraint violations, unsupported claims and recovery failures are of the pruned context; the CSV also has the full context's.",
      `Every proportion is pooled over fixtures from each fixture's behaviour block (sum of numerators over sum of denominators) with a 95% percentile fixture-cluster bootstrap (fixtures resampled with all their probes, since one fixture's probes share its context and are not independent; seed ${a.seed}, ${a.iterations} iterations). 0/0 is undefined.`,
    ],
    a.behaviour.map((b) => ({
      condition: b.condition,
      reader: b.reader,
      epochs: b.epochs,
      probes: b.probes,
      ...sideColumns('full', b.full),
      ...sideColumns('pruned', b.pruned),
      ...propColumns('caused_failures', b.causedFailures),
    })),
    a.behaviour.map((b) => ({
      condition: b.condition,
      reader: b.reader,
      probes: String(b.probes),
      'task success, full': formatProportion(b.full.taskSuccess),
      'task success, pruned': formatProportion(b.pruned.taskSuccess),
      'caused failures (paired)': formatProportion(b.causedFailures),
      'constraint violations': formatProportion(b.pruned.constraintViolations),
      'unsupported claims': formatProportion(b.pruned.unsupportedClaims),
      'recovery failures': formatProportion(b.pruned.recoveryFailures),
      errors: String(b.full.errors + b.pruned.errors),
    })),
  );
}

/** The first line of every table the preregistration does not name, in its CSV and its Markdown. */
export const EXPLORATORY_STAMP = 'Exploratory: not preregistered';

/** Whether the preregistration names a table (by file name); an unnamed one is exploratory. */
export function isPreregisteredTable(name: string, a: Pick<Analysis, 'preregisteredTables'>): boolean {
  return a.preregisteredTables.includes(name);
}

function stamp(name: string, a: Pick<Analysis, 'preregisteredTables'>): string {
  return isPreregisteredTable(name, a) ? '' : `${EXPLORATORY_STAMP}\n`;
}

export function tableCsv(t: ReportTable, a: Pick<Analysis, 'preregisteredTables'>): string {
  return `${stamp(t.name, a)}${t.data.toCSV()}`;
}

/** A reader table as Markdown: numeric columns right-aligned with thousands grouped (./markdown.ts). */
export function viewMarkdown(view: ColumnTable): string {
  const header = view.columnNames();
  const rows = view.objects().map((o) => header.map((h) => String((o as Row)[h] ?? '')));
  return markdownTable(header, rows);
}

export function tableMarkdown(t: ReportTable, a: Analysis): string {
  return `${stamp(t.name, a)}${isPreregisteredTable(t.name, a) ? '' : '\n'}# ${t.title}\n\n${caption(a)}.\n\n${viewMarkdown(t.view)}\n\n${t.notes.map((n) => `${n}\n`).join('\n')}`;
}
