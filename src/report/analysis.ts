// The report's numbers, computed once from validated results: per-condition measures with their intervals, the
// paired comparisons, the ladder's steps, the per-family breakdown and the safety/reduction frontier. Tables,
// charts and notebooks all read this; none of them computes an interval of its own.
import type {
  Behaviour,
  FamilyCounts,
  FixtureMeasures,
  Harm,
  OracleRatio,
  Ratio,
  Summary,
  Tokens,
} from '../artifacts/schema.js';
import type { EconomicsTotal } from '../economics/record.js';
import { byCodeUnit } from '../fixture/canonical.js';
import { baseRate, ratio } from '../score/ratio.js';
import { FIXTURE_OUTCOMES, POINT_OUTCOMES, SECONDARY_FIXTURE_OUTCOMES, SECONDARY_OUTCOMES } from './comparisons.js';
import { providerCost } from './cost.js';
import {
  evaluateCriterion,
  evaluateOutcome,
  neededDifferences,
  type CriterionResult,
  type DifferenceEvidence,
  type OutcomeResult,
  type RateMeasure,
} from './criteria.js';
import type { ConditionResults, ScoredPoint, StudyResults } from './load.js';
import type { AnalysisPlan } from './plan.js';
import { outsiderComparisons } from './study.js';
import {
  bootstrapSums,
  discordant,
  holm,
  mcnemarExact,
  rateOf,
  reductionOf,
  signFlipExact,
  wilson,
  type BootstrapResult,
  type Proportion,
} from './stats.js';

// Kept so that imports of Proportion from the analysis still resolve; it lives in stats.ts (no cycle with criteria.ts).
export type { Proportion } from './stats.js';

/** Harm-rate ceilings at which "reduction at a fixed safety threshold" is read. */
export const SAFETY_THRESHOLDS = [0, 0.01, 0.05] as const;
export { NO_FAMILY } from '../score/score.js';

/** A proportion of independent units, with its Wilson interval (used only where units are independent). */
export function proportion(numerator: number, denominator: number): Proportion {
  return { ...ratio(numerator, denominator), ...wilson(numerator, denominator) };
}

/**
 * A pooled proportion over fixtures with its fixture-cluster bootstrap interval: the fixtures are resampled, not
 * the units, since the units of one fixture (its decisions, prune points, items) are not independent.
 */
export function clustered(counts: readonly (readonly [number, number])[], boot: Resampling): Proportion {
  const n = counts.reduce((s, c) => s + c[0], 0);
  const d = counts.reduce((s, c) => s + c[1], 0);
  const r = intervalOf(counts, boot);
  return { ...ratio(n, d), lo: r.lo, hi: r.hi };
}

/**
 * Intervals already computed in one analysis (one Resampling object), by the counts they resample. Many rates repeat
 * the same per-fixture counts (the base rate is every condition's; a rule that never fires gives the same zeros), and
 * an interval is a pure function of the counts and the resampling, so each distinct one is bootstrapped once.
 */
const intervals = new WeakMap<Resampling, Map<string, BootstrapResult>>();

export function intervalOf(counts: readonly (readonly [number, number])[], boot: Resampling): BootstrapResult {
  let known = intervals.get(boot);
  if (!known) intervals.set(boot, (known = new Map()));
  const key = counts.join(';');
  let r = known.get(key);
  if (!r) known.set(key, (r = bootstrapSums([counts.map((c) => c[0]), counts.map((c) => c[1])], rateOf, boot)));
  return r;
}

/** The load step refuses unscored results, so an oracle measure here is always a ratio. */
function scored(r: OracleRatio): Ratio {
  if (r.numerator === null) throw new Error(`internal: an unscored measure reached the report (${r.reason})`);
  return r;
}

function harmOf(h: Harm | null): Harm {
  if (h === null) throw new Error('internal: an unscored harm reached the report');
  return h;
}

/** Every rate the report pools over fixtures, by name. */
export type FixtureRate = RateMeasure | 'precision' | 'abstentionRate' | 'obligationsPreserved' | 'baseRate';

/**
 * A fixture's numerator and denominator of a rate. harmRate and obligationsLost count each unit and obligation once
 * per fixture; baseRate is the removable share among scored candidates (the oracle's eligible removals over the
 * items decided on), the rate "prune everything" would reach as precision.
 */
export function fixtureCounts(measure: FixtureRate, f: FixtureMeasures): [number, number] {
  switch (measure) {
    case 'netReduction':
      return [f.tokens.raw - f.tokens.final, f.tokens.raw];
    case 'harmRate': {
      const h = harmOf(f.harm);
      return [h.necessaryRemoved, h.necessaryItems];
    }
    case 'obligationsLost':
      return [f.obligationsLost.lost, f.obligationsLost.declared];
    case 'obligationsPreserved':
      return [f.obligations.preserved, f.obligations.total];
    case 'abstentionRate':
      return [f.abstentionRate.numerator, f.abstentionRate.denominator];
    case 'baseRate': {
      const r = scored(baseRate(f));
      return [r.numerator, r.denominator];
    }
    case 'precision':
    case 'falsePruneRate':
    case 'coverage': {
      const r = scored(f[measure]);
      return [r.numerator, r.denominator];
    }
  }
}

export interface Sweep {
  /** The base condition whose parameter the variants vary. */
  readonly base: string;
  readonly parameter: string;
  readonly value: number;
}

export interface ConditionRow {
  readonly condition: string;
  /** Stamped exploratory alone, in a confirmatory run: the preregistration does not name it; no verdict reads it. */
  readonly exploratory: boolean;
  readonly layer: Summary['layer'];
  readonly rung: number | null;
  readonly upperRisk: boolean;
  /** Set for a sweep variant and for the base condition a sweep varies; null otherwise. */
  readonly sweep: Sweep | null;
  readonly fixtures: number;
  readonly prunePoints: number;
  readonly prunes: number;
  /** Every proportion below carries its 95% fixture-cluster bootstrap interval as lo/hi. */
  readonly precision: Proportion;
  /** Secondary: false prunes among removals; read it beside baseRate. */
  readonly falsePruneRate: Proportion;
  readonly coverage: Proportion;
  readonly abstentionRate: Proportion;
  /** DEFER decisions over all decisions (timing held an eligible removal back), fixture-cluster interval. */
  readonly deferRate: Proportion;
  readonly obligationsPreserved: Proportion;
  /** Primary: necessary units removed over necessary units, each (fixture, unit) counted once. */
  readonly harmRate: Proportion;
  readonly harmInterval: BootstrapResult;
  /** Primary: declared obligations lost, each (fixture, obligation) counted once. */
  readonly obligationsLost: Proportion;
  readonly obligationsLostInterval: BootstrapResult;
  /** Removable share among scored candidates: the precision of pruning everything. */
  readonly baseRate: Proportion;
  readonly refetchAlerts: number;
  readonly tokens: Tokens;
  /** Pooled net reduction 1 - final/raw, with a percentile bootstrap over fixtures. */
  readonly reduction: BootstrapResult;
  /** Provider cost in US dollars; null when not known. */
  readonly cost: number | null;
  /** Per cache profile: savings, cache loss, overhead and net (src/economics/); empty for results written before it. */
  readonly economics: readonly EconomicsTotal[];
}

/**
 * A paired test on one outcome. Unit `prune point` (v1): exact McNemar, b = points where only the candidate has the
 * outcome, c = only the reference. Unit `fixture` (v2): exact sign-flip on per-fixture count differences, b =
 * fixtures where the candidate has more, c = fixtures where the reference has more.
 */
export interface OutcomeTest {
  readonly outcome: string;
  readonly unit: 'prune point' | 'fixture';
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
  readonly pairedFixtures: number;
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
  /** Candidate's harm rate minus the reference's, paired bootstrap over fixtures. */
  readonly harmDifference: BootstrapResult;
  readonly tests: readonly OutcomeTest[];
}

export interface LadderRow {
  readonly condition: string;
  readonly previous: string | null;
  readonly row: ConditionRow;
  readonly removedBy: readonly {
    step: number | null;
    rule: string;
    rung: number | null;
    items: number;
    netTokensRemoved: number;
  }[];
  /** Changes against the previous ladder; null for the first. */
  readonly marginal: {
    reduction: number | null;
    prunes: number;
    falsePrunes: number;
    truePrunes: number;
    obligationsLost: number;
  } | null;
}

export interface FamilyRow {
  readonly family: string;
  readonly condition: string;
  /** Stamped exploratory alone, in a confirmatory run (as ConditionRow.exploratory). */
  readonly exploratory: boolean;
  /** Fixtures with an item of this family in context. */
  readonly fixtures: number;
  readonly prunes: number;
  readonly falsePruneRate: Proportion;
  readonly harmRate: Proportion;
  readonly coverage: Proportion;
  /** The family's removable share among its candidates. */
  readonly baseRate: Proportion;
}

export interface ThresholdRow {
  /** The sweep's base condition, or the condition itself when it has no sweep. */
  readonly curve: string;
  readonly threshold: number;
  /** The variant with the largest reduction whose harm rate is at most the threshold; null when none. */
  readonly best: ConditionRow | null;
  readonly variants: number;
}

/**
 * One side's behavioural measures, each pooled over fixtures from their perFixture behaviour blocks, with its
 * fixture-cluster bootstrap interval: a fixture's probes share its context and its prune points, so they are not
 * independent (an interval treating them as such, Wilson's, is several times too narrow).
 */
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
  /** Rows per corpus (canonical, generated, ...) and pooled; only `pooled` when there is one corpus. */
  readonly corpora: readonly { readonly corpus: string; readonly rows: readonly ConditionRow[] }[];
  /** The condition the study proposes (shown beside the comparators), or null. */
  readonly proposed: string | null;
  /** How the preregistered comparisons are paired. */
  readonly pairedUnit: 'prune point' | 'fixture';
  /** The report tables the preregistration names; every other one is stamped exploratory. */
  readonly preregisteredTables: readonly string[];
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

/** Base conditions of the sweeps present, with the parameter each varies. */
function sweepBases(conditions: readonly ConditionResults[]): Map<string, string> {
  const bases = new Map<string, string>();
  for (const { summary } of conditions)
    if (summary.sweepOf) bases.set(summary.sweepOf.condition, summary.sweepOf.parameter);
  return bases;
}

function sweepOf(summary: Summary, bases: ReadonlyMap<string, string>): Sweep | null {
  if (summary.sweepOf)
    return { base: summary.sweepOf.condition, parameter: summary.sweepOf.parameter, value: summary.sweepOf.value };
  const parameter = bases.get(summary.condition);
  const value = parameter === undefined ? undefined : summary.parameters[parameter];
  return parameter !== undefined && typeof value === 'number' ? { base: summary.condition, parameter, value } : null;
}

/** Fixture order for every bootstrap: the manifest's, so resampled indices mean the same fixtures everywhere. */
function byFixture(perFixture: readonly FixtureMeasures[]): Map<string, FixtureMeasures> {
  return new Map(perFixture.map((f) => [f.fixture, f]));
}

export interface Resampling {
  readonly seed: number;
  readonly iterations: number;
  readonly level: number;
}

/**
 * A condition's row over the fixtures of `fixtureOrder` it was run on (the whole study, or one corpus): every
 * figure from those fixtures' entries, each rate with its fixture-cluster bootstrap interval.
 */
function conditionRow(
  c: ConditionResults,
  fixtureOrder: readonly string[],
  bases: ReadonlyMap<string, string>,
  boot: Resampling,
  exploratoryRun: boolean,
  whole = true,
): ConditionRow {
  const s = c.summary;
  const mine = byFixture(s.perFixture);
  const present = fixtureOrder.filter((f) => mine.has(f)).map((f) => mine.get(f)!);
  const counts = (m: FixtureRate) => present.map((f) => fixtureCounts(m, f));
  const rate = (m: FixtureRate) => clustered(counts(m), boot);
  const withInterval = (m: FixtureRate): [Proportion, BootstrapResult] => {
    const cs = counts(m);
    const interval = intervalOf(cs, boot);
    const n = cs.reduce((x, q) => x + q[0], 0);
    const d = cs.reduce((x, q) => x + q[1], 0);
    return [{ ...ratio(n, d), lo: interval.lo, hi: interval.hi }, interval];
  };
  const [harmRate, harmInterval] = withInterval('harmRate');
  const [obligationsLost, obligationsLostInterval] = withInterval('obligationsLost');
  const sum = (pick: (f: FixtureMeasures) => number) => present.reduce((x, f) => x + pick(f), 0);
  return {
    condition: s.condition,
    exploratory: s.exploratory && !exploratoryRun,
    layer: s.layer,
    rung: s.rung,
    upperRisk: s.upperRisk,
    sweep: sweepOf(s, bases),
    fixtures: present.length,
    prunePoints: sum((f) => f.prunePoints),
    prunes: sum((f) => f.decisions.prune),
    precision: rate('precision'),
    falsePruneRate: rate('falsePruneRate'),
    coverage: rate('coverage'),
    abstentionRate: rate('abstentionRate'),
    deferRate: clustered(
      present.map((f) => [f.decisions.defer, f.decisions.total] as const),
      boot,
    ),
    obligationsPreserved: rate('obligationsPreserved'),
    harmRate,
    harmInterval,
    obligationsLost,
    obligationsLostInterval,
    baseRate: rate('baseRate'),
    refetchAlerts: sum((f) => f.refetchAlerts),
    tokens: sumTokens(present),
    reduction: bootstrapSums([present.map((f) => f.tokens.raw), present.map((f) => f.tokens.final)], reductionOf, boot),
    // The provider's bill is known for the whole run only.
    cost: whole ? providerCost(s) : null,
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
  const { b, c } = discordant(
    pairs.map(([p]) => has(p)),
    pairs.map(([, q]) => has(q)),
  );
  return { outcome, unit: 'prune point', ...mcnemarExact(b, c) };
}

/** Each fixture's points, by fixture id. */
function pointsByFixture(c: ConditionResults): Map<string, ScoredPoint[]> {
  const out = new Map<string, ScoredPoint[]>();
  for (const p of c.points) out.set(p.fixture, [...(out.get(p.fixture) ?? []), p]);
  return out;
}

/** The fixtures both conditions were run on, in manifest order. */
function pairedFixtures(a: ConditionResults, b: ConditionResults, fixtureOrder: readonly string[]): string[] {
  const x = byFixture(a.summary.perFixture);
  const y = byFixture(b.summary.perFixture);
  return fixtureOrder.filter((f) => x.has(f) && y.has(f));
}

/**
 * The fixture-level paired test: per fixture, the outcome's count under the candidate minus under the reference,
 * tested by the exact sign-flip test. The fixture is the unit because it is what is independent: McNemar on prune
 * points counts one fixture's correlated points as separate evidence.
 */
function fixtureTest(
  a: ConditionResults,
  b: ConditionResults,
  fixtureOrder: readonly string[],
  outcome: string,
): OutcomeTest {
  const count = FIXTURE_OUTCOMES.get(outcome);
  if (!count) throw new Error(`internal: no per-fixture count for outcome ${outcome} (the plan is checked before)`);
  const [fa, fb] = [byFixture(a.summary.perFixture), byFixture(b.summary.perFixture)];
  const [pa, pb] = [pointsByFixture(a), pointsByFixture(b)];
  const d = pairedFixtures(a, b, fixtureOrder).map(
    (f) =>
      count({ measures: fa.get(f)!, points: pa.get(f) ?? [] }) -
      count({ measures: fb.get(f)!, points: pb.get(f) ?? [] }),
  );
  const { b: more, c: fewer, p } = signFlipExact(d);
  return { outcome, unit: 'fixture', b: more, c: fewer, p };
}

/** Pooled rate of a minus pooled rate of b on the same fixtures, with a paired percentile bootstrap over fixtures. */
function pairedDifference(
  measure: RateMeasure,
  a: ConditionResults,
  b: ConditionResults,
  fixtureOrder: readonly string[],
  boot: Resampling,
): BootstrapResult {
  const x = byFixture(a.summary.perFixture);
  const y = byFixture(b.summary.perFixture);
  const fixtures = fixtureOrder.filter((f) => x.has(f) && y.has(f));
  const column = (m: ReadonlyMap<string, FixtureMeasures>, k: 0 | 1) =>
    fixtures.map((f) => fixtureCounts(measure, m.get(f)!)[k]);
  return bootstrapSums(
    [column(x, 0), column(x, 1), column(y, 0), column(y, 1)],
    ([nx, dx, ny, dy]) => (dx === 0 || dy === 0 ? null : nx! / dx! - ny! / dy!),
    boot,
  );
}

/** The preregistered comparisons, in the preregistration's order, Holm-corrected across its family. */
function preregistered(results: StudyResults, plan: AnalysisPlan, fixtureOrder: readonly string[]): ComparisonRow[] {
  const byName = new Map(results.conditions.map((c) => [c.summary.condition, c]));
  const { comparisons, multiplicity, paired } = plan.preregistration.analysis;
  const computed = comparisons.map((c) => {
    const absent = [c.condition, c.reference].filter((n) => !byName.has(n));
    if (absent.length > 0)
      return { c, pairs: 0, fixtures: 0, test: null, missing: `${absent.join(' and ')} not in these results` };
    const [a, b] = [byName.get(c.condition)!, byName.get(c.reference)!];
    const pairs = pairPoints(a, b);
    const test = paired.unit === 'fixture' ? fixtureTest(a, b, fixtureOrder, c.outcome) : pairedTest(pairs, c.outcome);
    return { c, pairs: pairs.length, fixtures: pairedFixtures(a, b, fixtureOrder).length, test, missing: null };
  });
  // Holm over the whole preregistered family: a member that could not be run counts with p = 1, so the others are
  // never adjusted as if the family were smaller than preregistered.
  const family = multiplicity.family;
  const adjusted = holm(family.map((id) => computed.find((x) => x.c.id === id)?.test?.p ?? 1));
  return computed.map(({ c, pairs, fixtures, test, missing }) => {
    const k = family.indexOf(c.id);
    const pHolm = test === null || k < 0 ? null : adjusted[k]!;
    return {
      id: c.id,
      candidate: c.condition,
      reference: c.reference,
      outcome: c.outcome,
      hypothesis: c.hypothesis,
      expected: c.expected,
      pairedPoints: pairs,
      pairedFixtures: fixtures,
      test,
      pHolm,
      significant: pHolm === null ? null : pHolm <= multiplicity.alpha,
      missing,
    };
  });
}

function secondary(
  results: StudyResults,
  plan: AnalysisPlan,
  fixtureOrder: readonly string[],
  boot: Resampling,
): SecondaryComparisonRow[] {
  const byName = new Map(results.conditions.map((c) => [c.summary.condition, c]));
  const byFixtures = plan.preregistration.analysis.paired.unit === 'fixture';
  // A condition from outside the registry (a --policy module) gets its comparisons here, from the results it is in.
  const comparisons = [...plan.secondary, ...outsiderComparisons([...byName.keys()], plan.proposed)];
  return comparisons
    .filter((c) => byName.has(c.candidate) && byName.has(c.reference))
    .map((c) => {
      const a = byName.get(c.candidate)!;
      const b = byName.get(c.reference)!;
      const pairs = pairPoints(a, b);
      return {
        ...c,
        pairedPoints: pairs.length,
        pairedFixtures: pairedFixtures(a, b, fixtureOrder).length,
        reductionDifference: pairedDifference('netReduction', a, b, fixtureOrder, boot),
        harmDifference: pairedDifference('harmRate', a, b, fixtureOrder, boot),
        tests: byFixtures
          ? SECONDARY_FIXTURE_OUTCOMES.map((o) => fixtureTest(a, b, fixtureOrder, o))
          : SECONDARY_OUTCOMES.map((o) => pairedTest(pairs, o)),
      };
    });
}

/** The condition a timing variant (`<base>~<timing>`, src/policy/timed.ts) times; null for any other condition. */
export function timingBaseOf(condition: string): string | null {
  const at = condition.indexOf('~');
  return at > 0 ? condition.slice(0, at) : null;
}

/**
 * Each ladder against the one it extends: a ladder against the ladder one rung below it, and a timing variant against
 * the ladder it times (the same decisions applied later or not at all), never against whichever row precedes it.
 */
export function ladderReferences(ladders: readonly string[]): (string | null)[] {
  const present = new Set(ladders);
  let lastBase: string | null = null;
  return ladders.map((name) => {
    const base = timingBaseOf(name);
    if (base !== null && present.has(base)) return base;
    const previous = lastBase;
    if (base === null) lastBase = name;
    return previous;
  });
}

function ladder(rows: readonly ConditionRow[], results: StudyResults): LadderRow[] {
  // A ladder's rules are the Layer A mechanisms of the same name; a sweep variant is not one of them.
  const rungOf = new Map(rows.filter((r) => r.layer === 'A' && !isVariant(r)).map((r) => [r.condition, r.rung]));
  const summaries = new Map(results.conditions.map((c) => [c.summary.condition, c.summary]));
  const ladders = rows.filter((r) => r.layer === 'B');
  const byName = new Map(ladders.map((r) => [r.condition, r]));
  const references = ladderReferences(ladders.map((r) => r.condition));
  return ladders.map((row, i) => {
    const prev = references[i] === null ? null : byName.get(references[i]!)!;
    const s = summaries.get(row.condition)!;
    // The primary measure: declared obligations lost, each (fixture, obligation) once, as the obligations-lost column.
    const lost = (r: ConditionRow) => r.obligationsLost.numerator;
    return {
      condition: row.condition,
      previous: prev?.condition ?? null,
      row,
      removedBy: s.removedBy.map((e) => ({ ...e, rung: rungOf.get(e.rule) ?? null })),
      marginal:
        prev === null
          ? null
          : {
              reduction:
                row.reduction.estimate === null || prev.reduction.estimate === null
                  ? null
                  : row.reduction.estimate - prev.reduction.estimate,
              prunes: row.prunes - prev.prunes,
              falsePrunes: row.falsePruneRate.numerator - prev.falsePruneRate.numerator,
              truePrunes: row.precision.numerator - prev.precision.numerator,
              obligationsLost: lost(row) - lost(prev),
            },
    };
  });
}

/**
 * Per scenario family and condition, from each fixture's per-family counts: removals and false prunes are
 * attributed to the family of the episode that produced the item (see FamilyCounts), not to whole fixtures.
 * Intervals resample fixtures (a fixture's episodes are not independent of each other).
 */
function families(results: StudyResults, fixtureOrder: readonly string[], boot: Resampling): FamilyRow[] {
  const names = new Set<string>();
  for (const { summary } of results.conditions) for (const f of summary.families) names.add(f.family);
  const out: FamilyRow[] = [];
  for (const family of [...names].sort(byCodeUnit)) {
    for (const { summary } of results.conditions) {
      if (summary.sweepOf) continue;
      const mine = byFixture(summary.perFixture);
      const rows = fixtureOrder
        .filter((f) => mine.has(f))
        .map((f) => mine.get(f)!.families.find((x) => x.family === family))
        .filter((x): x is FamilyCounts => x !== undefined);
      if (rows.length === 0) continue;
      const rate = (pick: (x: FamilyCounts) => [number, number]) => clustered(rows.map(pick), boot);
      out.push({
        family,
        condition: summary.condition,
        exploratory: summary.exploratory && !results.manifest.study.exploratory,
        fixtures: rows.length,
        prunes: rows.reduce((x, r) => x + r.prunes, 0),
        falsePruneRate: rate((r) => [r.falsePrunes, r.prunes]),
        harmRate: rate((r) => [r.necessaryRemoved, r.necessaryItems]),
        coverage: rate((r) => [r.prunes - r.falsePrunes, r.eligible]),
        baseRate: rate((r) => [r.eligible, r.candidates]),
      });
    }
  }
  return out;
}

/** Which corpus a fixture file belongs to: the folder it sits in (fixtures/canonical, fixtures/generated). */
export function corpusOf(file: string): string {
  const parts = file.split('/');
  return parts.length >= 2 ? parts[parts.length - 2]! : POOLED;
}

/** The corpus name of rows over every fixture. */
export const POOLED = 'pooled';

/** Whether a row is a sweep variant (its sweep's base is another condition), not a condition in its own right. */
export function isVariant(row: ConditionRow): boolean {
  return row.sweep !== null && row.sweep.base !== row.condition;
}

/** The curve a row belongs to: its sweep's base, or itself. */
export function curveOf(row: ConditionRow): string {
  return row.sweep?.base ?? row.condition;
}

/**
 * Whether a row's harm rate is at most `threshold` (a condition removing no necessary unit qualifies, so does one
 * whose corpus holds none). The harm rate, not the false-prune rate among removals, since the latter depends on the
 * base rate: pruning everything has a low false-prune rate where most items are removable.
 */
export function meetsSafety(row: ConditionRow, threshold: number): boolean {
  return row.harmRate.numerator <= threshold * row.harmRate.denominator;
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

function corpora(
  results: StudyResults,
  pooled: readonly ConditionRow[],
  bases: ReadonlyMap<string, string>,
  boot: Resampling,
): Analysis['corpora'] {
  const byCorpus = new Map<string, string[]>();
  for (const f of results.manifest.fixtures)
    byCorpus.set(corpusOf(f.file), [...(byCorpus.get(corpusOf(f.file)) ?? []), f.id]);
  if (byCorpus.size < 2) return [{ corpus: POOLED, rows: pooled }];
  return [
    ...[...byCorpus]
      .sort(([a], [b]) => byCodeUnit(a, b))
      .map(([corpus, ids]) => ({
        corpus,
        rows: results.conditions.map((c) =>
          conditionRow(c, ids, bases, boot, results.manifest.study.exploratory, false),
        ),
      })),
    { corpus: POOLED, rows: pooled },
  ];
}

/**
 * The results a verdict may read: in a confirmatory run, without the conditions stamped exploratory alone. An
 * exploratory run is read whole (all of it is stamped, and the report says so).
 */
export function confirmatoryOnly(results: StudyResults): StudyResults {
  if (results.manifest.study.exploratory) return results;
  return { ...results, conditions: results.conditions.filter((c) => !c.summary.exploratory) };
}

/** Every figure of the report, by the plan the preregistration states (see plan.ts for how it is loaded). */
/** `onStep`: told after each condition's row and each pooled breakdown, for a progress line (the bootstraps are slow). */
export function analyse(
  results: StudyResults,
  plan: AnalysisPlan,
  onStep?: (done: number, total: number) => void,
): Analysis {
  const fixtureOrder = results.manifest.fixtures.map((f) => f.id);
  const { bootstrap: b, multiplicity } = plan.preregistration.analysis;
  const boot: Resampling = { seed: b.seed, iterations: b.iterations, level: b.level };
  const bases = sweepBases(results.conditions);
  const steps = results.conditions.length + 3;
  let done = 0;
  const step = () => onStep?.(++done, steps);
  const rows = results.conditions.map((c) => {
    const row = conditionRow(c, fixtureOrder, bases, boot, results.manifest.study.exploratory);
    step();
    return row;
  });
  const prunePoints = Math.max(0, ...results.conditions.map((c) => c.summary.prunePoints));
  // A condition stamped exploratory alone (the preregistration does not name it) runs beside the study, but no
  // preregistered comparison, difference or verdict reads it: for them it is not in the results.
  const judged = confirmatoryOnly(results);
  const byName = new Map(judged.conditions.map((c) => [c.summary.condition, c]));
  const differences = neededDifferences(plan.criteria)
    .filter((d) => byName.has(d.condition) && byName.has(d.reference))
    .map((d) => ({
      ...d,
      interval: pairedDifference(d.measure, byName.get(d.condition)!, byName.get(d.reference)!, fixtureOrder, boot),
    }));
  const comparisons = preregistered(judged, plan, fixtureOrder);
  const judgedNames = new Set(byName.keys());
  const evidence = {
    alpha: multiplicity.alpha,
    models: results.manifest.models,
    rows: rows.filter((r) => judgedNames.has(r.condition)),
    differences,
    comparisons: comparisons.map((c) => ({
      id: c.id,
      candidate: c.candidate,
      reference: c.reference,
      test: c.test,
      pHolm: c.pHolm,
    })),
  };
  const p = plan.preregistration;
  const acceptance = plan.criteria.map((form) =>
    evaluateCriterion(form, p.acceptance.find((x) => x.id === form.id)!, evidence),
  );
  const outcomes = p.outcomes.map((o) =>
    evaluateOutcome(plan.outcomes.find((f) => f.id === o.id)!, o, acceptance, evidence),
  );
  const secondaryRows = secondary(results, plan, fixtureOrder, boot);
  step();
  const familyRows = families(results, fixtureOrder, boot);
  step();
  const corpusRows = corpora(results, rows, bases, boot);
  step();
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
    secondary: secondaryRows,
    differences,
    acceptance,
    outcomes,
    ladder: ladder(rows, results),
    families: familyRows,
    thresholds: thresholds(rows),
    corpora: corpusRows,
    proposed: plan.proposed,
    pairedUnit: p.analysis.paired.unit,
    preregisteredTables: p.analysis.preregisteredTables ?? [],
    behaviour: behaviourRows(results, fixtureOrder, boot),
  };
}

/**
 * A condition's behaviour, pooled over the fixtures of `fixtureOrder` from each one's perFixture behaviour block
 * (numerators and denominators summed), each proportion with its fixture-cluster bootstrap interval, on the same
 * resampled fixtures as every other rate of the report.
 */
function behaviourRows(results: StudyResults, fixtureOrder: readonly string[], boot: Resampling): BehaviourRow[] {
  return results.conditions.map(({ summary: { condition, behaviour: b, perFixture } }) => {
    const mine = byFixture(perFixture);
    const present = fixtureOrder.filter((f) => mine.has(f)).map((f) => mine.get(f)!.behaviour);
    const rate = (pick: (x: Behaviour) => Ratio) =>
      clustered(
        present.map((x) => [pick(x).numerator, pick(x).denominator] as const),
        boot,
      );
    const side = (which: 'full' | 'pruned'): BehaviourSideRow => ({
      taskSuccess: rate((x) => x[which].taskSuccess),
      constraintViolations: rate((x) => x[which].constraintViolations),
      unsupportedClaims: rate((x) => x[which].unsupportedClaims),
      recoveryFailures: rate((x) => x[which].recoveryFailures),
      errors: present.reduce((n, x) => n + x[which].errors, 0),
    });
    return {
      condition,
      reader: b.reader,
      epochs: b.epochs,
      probes: present.reduce((n, x) => n + x.probes, 0),
      full: side('full'),
      pruned: side('pruned'),
      causedFailures: rate((x) => x.paired.causedFailures),
    };
  });
}

/** One line naming what the figures rest on, for every caption. */
export function caption(a: Pick<Analysis, 'fixtures' | 'prunePoints' | 'exploratory' | 'preregistration'>): string {
  const study =
    a.exploratory || a.preregistration === null
      ? 'exploratory — not preregistered'
      : `preregistration sha256 ${a.preregistration.sha256.slice(0, 12)}`;
  return `${a.fixtures} fixtures, ${a.prunePoints} prune points; ${study}`;
}
