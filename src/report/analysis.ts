// The report's numbers, computed once from validated results: per-condition measures with their intervals, the
// paired comparisons, the ladder's steps, the per-family breakdown and the safety/reduction frontier. Tables,
// charts and notebooks all read this; none of them computes an interval of its own.
import type { BehaviourSide, FixtureMeasures, OracleRatio, Ratio, Summary, Tokens } from '../artifacts/schema.js';
import type { EconomicsTotal } from '../economics/record.js';
import { byCodeUnit } from '../fixture/canonical.js';
import { pool, ratio } from '../score/ratio.js';
import { POINT_OUTCOMES, SECONDARY_COMPARISONS, SECONDARY_OUTCOMES } from './comparisons.js';
import { providerCost } from './cost.js';
import {
  evaluateCriterion, evaluateOutcome, neededDifferences, type CriterionResult, type DifferenceEvidence, type OutcomeResult, type RateMeasure,
} from './criteria.js';
import type { ConditionResults, ScoredPoint, StudyResults } from './load.js';
import type { AnalysisPlan } from './plan.js';
import { bootstrap, discordant, holm, mcnemarExact, pooledReduction, wilson, type BootstrapResult, type Proportion } from './stats.js';

// Kept so that imports of Proportion from the analysis still resolve; it lives in stats.ts (no cycle with criteria.ts).
export type { Proportion } from './stats.js';

/** False-prune-rate ceilings at which "reduction at a fixed safety threshold" is read. */
export const SAFETY_THRESHOLDS = [0, 0.01, 0.05] as const;
/** The family name a fixture with no declared families is counted under. */
export const NO_FAMILY = '(none)';

export function proportion(numerator: number, denominator: number): Proportion {
  return { ...ratio(numerator, denominator), ...wilson(numerator, denominator) };
}

/** The load step refuses unscored results, so an oracle measure here is always a ratio. */
function scored(r: OracleRatio): Ratio {
  if (r.numerator === null) throw new Error(`internal: an unscored measure reached the report (${r.reason})`);
  return r;
}

function proportionOf(r: Ratio): Proportion {
  return proportion(r.numerator, r.denominator);
}

export interface Sweep {
  /** The base condition whose parameter the variants vary. */
  readonly base: string;
  readonly parameter: string;
  readonly value: number;
}

export interface ConditionRow {
  readonly condition: string;
  readonly layer: Summary['layer'];
  readonly rung: number | null;
  readonly upperRisk: boolean;
  /** Set for a sweep variant and for the base condition a sweep varies; null otherwise. */
  readonly sweep: Sweep | null;
  readonly fixtures: number;
  readonly prunePoints: number;
  readonly prunes: number;
  readonly precision: Proportion;
  readonly falsePruneRate: Proportion;
  readonly coverage: Proportion;
  readonly abstentionRate: Proportion;
  readonly obligationsPreserved: Proportion;
  readonly refetchAlerts: number;
  readonly tokens: Tokens;
  /** Pooled net reduction 1 - final/raw, with a percentile bootstrap over fixtures. */
  readonly reduction: BootstrapResult;
  /** Provider cost in US dollars; null when not known. */
  readonly cost: number | null;
  /** Per cache profile: savings, cache loss, overhead and net (src/economics/); empty for results written before it. */
  readonly economics: readonly EconomicsTotal[];
}

/** An exact McNemar test on one point outcome; b: points where only the candidate has it, c: only the reference. */
export interface OutcomeTest {
  readonly outcome: string;
  readonly b: number;
  readonly c: number;
  readonly p: number;
}

/** A preregistered comparison, as the preregistration states it, with its test and Holm-adjusted p-value. */
export interface ComparisonRow {
  readonly id: string;
  readonly candidate: string;
  readonly reference: string;
  readonly outcome: string;
  readonly hypothesis: string;
  readonly expected: string;
  readonly pairedPoints: number;
  /** Null when a condition it names is not in the results (then `missing` says which). */
  readonly test: OutcomeTest | null;
  /** Holm-adjusted across the preregistered family; null outside the family or when not run. */
  readonly pHolm: number | null;
  readonly significant: boolean | null;
  readonly missing: string | null;
}

/** A secondary comparison: descriptive, outside the Holm family, p-values unadjusted. */
export interface SecondaryComparisonRow {
  readonly id: string;
  readonly candidate: string;
  readonly reference: string;
  readonly question: string;
  readonly pairedPoints: number;
  readonly pairedFixtures: number;
  /** Candidate's pooled reduction minus the reference's, paired bootstrap over fixtures. */
  readonly reductionDifference: BootstrapResult;
  readonly tests: readonly OutcomeTest[];
}

export interface LadderRow {
  readonly condition: string;
  readonly previous: string | null;
  readonly row: ConditionRow;
  readonly removedBy: readonly { step: number | null; rule: string; rung: number | null; items: number; netTokensRemoved: number }[];
  /** Changes against the previous ladder; null for the first. */
  readonly marginal: { reduction: number | null; prunes: number; falsePrunes: number; truePrunes: number; obligationsLost: number } | null;
}

export interface FamilyRow {
  readonly family: string;
  readonly condition: string;
  readonly fixtures: number;
  readonly prunePoints: number;
  readonly falsePruneRate: Proportion;
  readonly coverage: Proportion;
  readonly obligationsPreserved: Proportion;
  readonly reduction: number | null;
}

export interface ThresholdRow {
  /** The sweep's base condition, or the condition itself when it has no sweep. */
  readonly curve: string;
  readonly threshold: number;
  /** The variant with the largest reduction whose false-prune rate is at most the threshold; null when none. */
  readonly best: ConditionRow | null;
  readonly variants: number;
}

/** One side's behavioural measures, each proportion with its Wilson interval. */
export interface BehaviourSideRow {
  readonly taskSuccess: Proportion;
  readonly constraintViolations: Proportion;
  readonly unsupportedClaims: Proportion;
  readonly recoveryFailures: Proportion;
  readonly errors: number;
}

/** A condition's behaviour block, as the report reads it: which reader answered, and the paired figures. */
export interface BehaviourRow {
  readonly condition: string;
  readonly reader: string;
  readonly epochs: number;
  readonly probes: number;
  readonly full: BehaviourSideRow;
  readonly pruned: BehaviourSideRow;
  /** Probes the full context answers correctly and the pruned one does not, over those the full context answers correctly. */
  readonly causedFailures: Proportion;
}

export interface Analysis {
  readonly label: string;
  readonly fixtures: number;
  readonly prunePoints: number;
  readonly seed: number;
  readonly iterations: number;
  readonly alpha: number;
  readonly exploratory: boolean;
  readonly preregistration: { file: string; sha256: string } | null;
  /** The preregistration the plan was read from (for exploratory results too). */
  readonly plan: { file: string; sha256: string };
  /** The preregistered per-prune-point outcomes the comparisons test. */
  readonly pointOutcomes: readonly { id: string; definition: string }[];
  readonly rows: readonly ConditionRow[];
  readonly comparisons: readonly ComparisonRow[];
  readonly secondary: readonly SecondaryComparisonRow[];
  readonly differences: readonly DifferenceEvidence[];
  readonly acceptance: readonly CriterionResult[];
  readonly outcomes: readonly OutcomeResult[];
  readonly ladder: readonly LadderRow[];
  readonly families: readonly FamilyRow[];
  readonly thresholds: readonly ThresholdRow[];
  /** Per condition, in results order; the load step guarantees one reader across them. */
  readonly behaviour: readonly BehaviourRow[];
}

function sumTokens(rows: readonly { tokens: Tokens }[]): Tokens {
  const t = { raw: 0, removed: 0, placeholder: 0, overhead: 0, final: 0 };
  for (const r of rows) {
    t.raw += r.tokens.raw;
    t.removed += r.tokens.removed;
    t.placeholder += r.tokens.placeholder;
    t.overhead += r.tokens.overhead;
    t.final += r.tokens.final;
  }
  return t;
}

function reductionOf(t: Tokens): number | null {
  return t.raw === 0 ? null : 1 - t.final / t.raw;
}

/** Base conditions of the sweeps present, with the parameter each varies. */
function sweepBases(conditions: readonly ConditionResults[]): Map<string, string> {
  const bases = new Map<string, string>();
  for (const { summary } of conditions) if (summary.sweepOf) bases.set(summary.sweepOf.condition, summary.sweepOf.parameter);
  return bases;
}

function sweepOf(summary: Summary, bases: ReadonlyMap<string, string>): Sweep | null {
  if (summary.sweepOf) return { base: summary.sweepOf.condition, parameter: summary.sweepOf.parameter, value: summary.sweepOf.value };
  const parameter = bases.get(summary.condition);
  const value = parameter === undefined ? undefined : summary.parameters[parameter];
  return parameter !== undefined && typeof value === 'number' ? { base: summary.condition, parameter, value } : null;
}

/** Fixture order for every bootstrap: the manifest's, so resampled indices mean the same fixtures everywhere. */
function byFixture(perFixture: readonly FixtureMeasures[]): Map<string, FixtureMeasures> {
  return new Map(perFixture.map((f) => [f.fixture, f]));
}

interface Resampling {
  readonly seed: number;
  readonly iterations: number;
  readonly level: number;
}

function conditionRow(c: ConditionResults, fixtureOrder: readonly string[], bases: ReadonlyMap<string, string>, boot: Resampling): ConditionRow {
  const s = c.summary;
  const mine = byFixture(s.perFixture);
  const present = fixtureOrder.filter((f) => mine.has(f)).map((f) => mine.get(f)!);
  return {
    condition: s.condition,
    layer: s.layer,
    rung: s.rung,
    upperRisk: s.upperRisk,
    sweep: sweepOf(s, bases),
    fixtures: s.fixtures,
    prunePoints: s.prunePoints,
    prunes: s.decisions.prune,
    precision: proportionOf(scored(s.precision)),
    falsePruneRate: proportionOf(scored(s.falsePruneRate)),
    coverage: proportionOf(scored(s.coverage)),
    abstentionRate: proportionOf(s.abstentionRate),
    obligationsPreserved: proportion(s.obligations.preserved, s.obligations.total),
    refetchAlerts: s.refetchAlerts,
    tokens: s.tokens,
    reduction: bootstrap(present.length, pooledReduction(present.map((f) => f.tokens.raw), present.map((f) => f.tokens.final)), boot),
    cost: providerCost(s),
    economics: s.economics ?? [],
  };
}

const pointKey = (p: ScoredPoint) => `${p.fixture}\u0000${p.prunePoint}`;

/** The prune points both conditions were scored on, paired. */
function pairPoints(candidate: ConditionResults, reference: ConditionResults): (readonly [ScoredPoint, ScoredPoint])[] {
  const ref = new Map(reference.points.map((p) => [pointKey(p), p]));
  return candidate.points.filter((p) => ref.has(pointKey(p))).map((p) => [p, ref.get(pointKey(p))!] as const);
}

function pairedTest(pairs: readonly (readonly [ScoredPoint, ScoredPoint])[], outcome: string): OutcomeTest {
  const has = POINT_OUTCOMES.get(outcome);
  if (!has) throw new Error(`internal: no measure for point outcome ${outcome} (the plan is checked before)`);
  const { b, c } = discordant(pairs.map(([p]) => has(p)), pairs.map(([, q]) => has(q)));
  return { outcome, ...mcnemarExact(b, c) };
}

/** Per-fixture numerator and denominator of a pooled rate, in fixture order. */
function fixtureCounts(measure: RateMeasure, f: FixtureMeasures): [number, number] {
  if (measure === 'netReduction') return [f.tokens.raw - f.tokens.final, f.tokens.raw];
  const r = scored(measure === 'falsePruneRate' ? f.falsePruneRate : f.coverage);
  return [r.numerator, r.denominator];
}

/** Pooled rate of a minus pooled rate of b on the same fixtures, with a paired percentile bootstrap over fixtures. */
function pairedDifference(measure: RateMeasure, a: ConditionResults, b: ConditionResults, fixtureOrder: readonly string[], boot: Resampling): BootstrapResult {
  const x = byFixture(a.summary.perFixture);
  const y = byFixture(b.summary.perFixture);
  const fixtures = fixtureOrder.filter((f) => x.has(f) && y.has(f));
  const cx = fixtures.map((f) => fixtureCounts(measure, x.get(f)!));
  const cy = fixtures.map((f) => fixtureCounts(measure, y.get(f)!));
  return bootstrap(fixtures.length, (idx) => {
    let nx = 0;
    let dx = 0;
    let ny = 0;
    let dy = 0;
    for (const i of idx) {
      nx += cx[i]![0];
      dx += cx[i]![1];
      ny += cy[i]![0];
      dy += cy[i]![1];
    }
    return dx === 0 || dy === 0 ? null : nx / dx - ny / dy;
  }, boot);
}

/** The preregistered comparisons, in the preregistration's order, Holm-corrected across its family. */
function preregistered(results: StudyResults, plan: AnalysisPlan): ComparisonRow[] {
  const byName = new Map(results.conditions.map((c) => [c.summary.condition, c]));
  const { comparisons, multiplicity } = plan.preregistration.analysis;
  const computed = comparisons.map((c) => {
    const absent = [c.condition, c.reference].filter((n) => !byName.has(n));
    if (absent.length > 0) return { c, pairs: 0, test: null, missing: `${absent.join(' and ')} not in these results` };
    const pairs = pairPoints(byName.get(c.condition)!, byName.get(c.reference)!);
    return { c, pairs: pairs.length, test: pairedTest(pairs, c.outcome), missing: null };
  });
  // Holm over the whole preregistered family: a member that could not be run counts with p = 1, so the others are
  // never adjusted as if the family were smaller than preregistered.
  const family = multiplicity.family;
  const adjusted = holm(family.map((id) => computed.find((x) => x.c.id === id)?.test?.p ?? 1));
  return computed.map(({ c, pairs, test, missing }) => {
    const k = family.indexOf(c.id);
    const pHolm = test === null || k < 0 ? null : adjusted[k]!;
    return {
      id: c.id, candidate: c.condition, reference: c.reference, outcome: c.outcome, hypothesis: c.hypothesis, expected: c.expected,
      pairedPoints: pairs, test, pHolm, significant: pHolm === null ? null : pHolm <= multiplicity.alpha, missing,
    };
  });
}

function secondary(results: StudyResults, fixtureOrder: readonly string[], boot: Resampling): SecondaryComparisonRow[] {
  const byName = new Map(results.conditions.map((c) => [c.summary.condition, c]));
  return SECONDARY_COMPARISONS.filter((c) => byName.has(c.candidate) && byName.has(c.reference)).map((c) => {
    const a = byName.get(c.candidate)!;
    const b = byName.get(c.reference)!;
    const pairs = pairPoints(a, b);
    const x = byFixture(a.summary.perFixture);
    const y = byFixture(b.summary.perFixture);
    return {
      ...c,
      pairedPoints: pairs.length,
      pairedFixtures: fixtureOrder.filter((f) => x.has(f) && y.has(f)).length,
      reductionDifference: pairedDifference('netReduction', a, b, fixtureOrder, boot),
      tests: SECONDARY_OUTCOMES.map((o) => pairedTest(pairs, o)),
    };
  });
}

function ladder(rows: readonly ConditionRow[], results: StudyResults): LadderRow[] {
  // A ladder's rules are the Layer A mechanisms of the same name; a sweep variant is not one of them.
  const rungOf = new Map(rows.filter((r) => r.layer === 'A' && !isVariant(r)).map((r) => [r.condition, r.rung]));
  const summaries = new Map(results.conditions.map((c) => [c.summary.condition, c.summary]));
  const ladders = rows.filter((r) => r.layer === 'B');
  return ladders.map((row, i) => {
    const prev = i === 0 ? null : ladders[i - 1]!;
    const s = summaries.get(row.condition)!;
    const lost = (r: ConditionRow) => r.obligationsPreserved.denominator - r.obligationsPreserved.numerator;
    return {
      condition: row.condition,
      previous: prev?.condition ?? null,
      row,
      removedBy: s.removedBy.map((e) => ({ ...e, rung: rungOf.get(e.rule) ?? null })),
      marginal: prev === null ? null : {
        reduction: row.reduction.estimate === null || prev.reduction.estimate === null ? null : row.reduction.estimate - prev.reduction.estimate,
        prunes: row.prunes - prev.prunes,
        falsePrunes: row.falsePruneRate.numerator - prev.falsePruneRate.numerator,
        truePrunes: row.precision.numerator - prev.precision.numerator,
        obligationsLost: lost(row) - lost(prev),
      },
    };
  });
}

function families(results: StudyResults): FamilyRow[] {
  const names = new Set<string>();
  for (const fams of results.families.values()) for (const f of fams.length ? fams : [NO_FAMILY]) names.add(f);
  const out: FamilyRow[] = [];
  for (const family of [...names].sort(byCodeUnit)) {
    const members = new Set([...results.families].filter(([, fams]) => (fams.length ? fams.includes(family) : family === NO_FAMILY)).map(([id]) => id));
    for (const { summary } of results.conditions) {
      if (summary.sweepOf) continue;
      const mine = summary.perFixture.filter((f) => members.has(f.fixture));
      if (mine.length === 0) continue;
      const sum = (pick: (f: FixtureMeasures) => number) => mine.reduce((acc, f) => acc + pick(f), 0);
      out.push({
        family,
        condition: summary.condition,
        fixtures: mine.length,
        prunePoints: sum((f) => f.prunePoints),
        falsePruneRate: proportionOf(pool(mine.map((f) => scored(f.falsePruneRate)))),
        coverage: proportionOf(pool(mine.map((f) => scored(f.coverage)))),
        obligationsPreserved: proportion(sum((f) => f.obligations.preserved), sum((f) => f.obligations.total)),
        reduction: reductionOf(sumTokens(mine)),
      });
    }
  }
  return out;
}

/** Whether a row is a sweep variant (its sweep's base is another condition), not a condition in its own right. */
export function isVariant(row: ConditionRow): boolean {
  return row.sweep !== null && row.sweep.base !== row.condition;
}

/** The curve a row belongs to: its sweep's base, or itself. */
export function curveOf(row: ConditionRow): string {
  return row.sweep?.base ?? row.condition;
}

/** Whether a row's false prunes are at most `threshold` of its prunes (a condition that prunes nothing qualifies). */
export function meetsSafety(row: ConditionRow, threshold: number): boolean {
  return row.falsePruneRate.numerator <= threshold * row.falsePruneRate.denominator;
}

function thresholds(rows: readonly ConditionRow[]): ThresholdRow[] {
  const curves = [...new Set(rows.map(curveOf))];
  const out: ThresholdRow[] = [];
  for (const curve of curves) {
    const members = rows.filter((r) => curveOf(r) === curve);
    for (const threshold of SAFETY_THRESHOLDS) {
      let best: ConditionRow | null = null;
      for (const r of members) {
        if (!meetsSafety(r, threshold)) continue;
        const x = r.reduction.estimate ?? -Infinity;
        if (best === null || x > (best.reduction.estimate ?? -Infinity)) best = r;
      }
      out.push({ curve, threshold, best, variants: members.length });
    }
  }
  return out;
}

/** Every figure of the report, by the plan the preregistration states (see plan.ts for how it is loaded). */
export function analyse(results: StudyResults, plan: AnalysisPlan): Analysis {
  const fixtureOrder = results.manifest.fixtures.map((f) => f.id);
  const { bootstrap: b, multiplicity } = plan.preregistration.analysis;
  const boot: Resampling = { seed: b.seed, iterations: b.iterations, level: b.level };
  const bases = sweepBases(results.conditions);
  const rows = results.conditions.map((c) => conditionRow(c, fixtureOrder, bases, boot));
  const prunePoints = Math.max(0, ...results.conditions.map((c) => c.summary.prunePoints));
  const byName = new Map(results.conditions.map((c) => [c.summary.condition, c]));
  const differences = neededDifferences(plan.criteria)
    .filter((d) => byName.has(d.condition) && byName.has(d.reference))
    .map((d) => ({ ...d, interval: pairedDifference(d.measure, byName.get(d.condition)!, byName.get(d.reference)!, fixtureOrder, boot) }));
  const comparisons = preregistered(results, plan);
  const evidence = {
    alpha: multiplicity.alpha, models: results.manifest.models, rows, differences,
    comparisons: comparisons.map((c) => ({ id: c.id, candidate: c.candidate, reference: c.reference, test: c.test, pHolm: c.pHolm })),
  };
  const p = plan.preregistration;
  const acceptance = plan.criteria.map((form) => evaluateCriterion(form, p.acceptance.find((x) => x.id === form.id)!, evidence));
  const outcomes = p.outcomes.map((o) => evaluateOutcome(plan.outcomes.find((f) => f.id === o.id)!, o, acceptance, evidence));
  return {
    label: results.label,
    fixtures: fixtureOrder.length,
    prunePoints,
    seed: b.seed,
    iterations: b.iterations,
    alpha: multiplicity.alpha,
    exploratory: results.manifest.study.exploratory,
    preregistration: results.manifest.study.preregistration,
    plan: { file: plan.file, sha256: plan.sha256 },
    pointOutcomes: p.pointOutcomes,
    rows,
    comparisons,
    secondary: secondary(results, fixtureOrder, boot),
    differences,
    acceptance,
    outcomes,
    ladder: ladder(rows, results),
    families: families(results),
    thresholds: thresholds(rows),
    behaviour: behaviourRows(results),
  };
}

function behaviourSide(s: BehaviourSide): BehaviourSideRow {
  return {
    taskSuccess: proportionOf(s.taskSuccess), constraintViolations: proportionOf(s.constraintViolations), unsupportedClaims: proportionOf(s.unsupportedClaims),
    recoveryFailures: proportionOf(s.recoveryFailures), errors: s.errors,
  };
}

function behaviourRows(results: StudyResults): BehaviourRow[] {
  return results.conditions.map(({ summary: { condition, behaviour: b } }) => ({
    condition, reader: b.reader, epochs: b.epochs, probes: b.probes,
    full: behaviourSide(b.full), pruned: behaviourSide(b.pruned),
    causedFailures: proportionOf(b.paired.causedFailures),
  }));
}

/** One line naming what the figures rest on, for every caption. */
export function caption(a: Pick<Analysis, 'fixtures' | 'prunePoints' | 'exploratory' | 'preregistration'>): string {
  const study = a.exploratory || a.preregistration === null
    ? 'exploratory — not preregistered'
    : `preregistration sha256 ${a.preregistration.sha256.slice(0, 12)}`;
  return `${a.fixtures} fixtures, ${a.prunePoints} prune points; ${study}`;
}
