// The report's numbers, computed once from validated results: per-condition measures with their intervals, the
// paired comparisons, the ladder's steps, the per-family breakdown and the safety/reduction frontier. Tables,
// charts and notebooks all read this; none of them computes an interval of its own.
import type { FixtureMeasures, OracleRatio, Ratio, Summary, Tokens } from '../artifacts/schema.js';
import { byCodeUnit } from '../fixture/canonical.js';
import { BINARY_OUTCOMES, COMPARISONS, type BinaryOutcome } from './comparisons.js';
import { providerCost } from './cost.js';
import type { ConditionResults, ScoredPoint, StudyResults } from './load.js';
import { bootstrap, discordant, holm, mcnemarExact, pooledReduction, wilson, type BootstrapResult } from './stats.js';

export const BOOTSTRAP_ITERATIONS = 2000;
/** False-prune-rate ceilings at which "reduction at a fixed safety threshold" is read. */
export const SAFETY_THRESHOLDS = [0, 0.01, 0.05] as const;
/** The family name a fixture with no declared families is counted under. */
export const NO_FAMILY = '(none)';

export interface Proportion {
  readonly numerator: number;
  readonly denominator: number;
  readonly value: number | null;
  readonly lo: number | null;
  readonly hi: number | null;
}

export function proportion(numerator: number, denominator: number): Proportion {
  return { numerator, denominator, value: denominator === 0 ? null : numerator / denominator, ...wilson(numerator, denominator) };
}

/** The load step refuses unscored results, so an oracle measure here is always a ratio. */
function scored(r: OracleRatio): Ratio {
  if (r.numerator === null) throw new Error(`internal: an unscored measure reached the report (${r.reason})`);
  return r;
}

function proportionOf(r: OracleRatio): Proportion {
  const { numerator, denominator } = scored(r);
  return proportion(numerator, denominator);
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
}

export interface OutcomeTest {
  readonly outcome: BinaryOutcome;
  readonly b: number;
  readonly c: number;
  readonly p: number;
  readonly pHolm: number;
}

export interface ComparisonRow {
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

export interface Analysis {
  readonly label: string;
  readonly fixtures: number;
  readonly prunePoints: number;
  readonly seed: number;
  readonly iterations: number;
  readonly exploratory: boolean;
  readonly preregistration: { file: string; sha256: string } | null;
  readonly rows: readonly ConditionRow[];
  readonly comparisons: readonly ComparisonRow[];
  readonly ladder: readonly LadderRow[];
  readonly families: readonly FamilyRow[];
  readonly thresholds: readonly ThresholdRow[];
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

function conditionRow(c: ConditionResults, fixtureOrder: readonly string[], bases: ReadonlyMap<string, string>, seed: number): ConditionRow {
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
    precision: proportionOf(s.precision),
    falsePruneRate: proportionOf(s.falsePruneRate),
    coverage: proportionOf(s.coverage),
    abstentionRate: proportion(s.abstentionRate.numerator, s.abstentionRate.denominator),
    obligationsPreserved: proportion(s.obligations.preserved, s.obligations.total),
    refetchAlerts: s.refetchAlerts,
    tokens: s.tokens,
    reduction: bootstrap(present.length, pooledReduction(present.map((f) => f.tokens.raw), present.map((f) => f.tokens.final)), {
      seed, iterations: BOOTSTRAP_ITERATIONS,
    }),
    cost: providerCost(s),
  };
}

function outcome(point: ScoredPoint, which: BinaryOutcome): boolean {
  return which === 'false-prune' ? point.falsePrunes > 0 : point.obligationsPreserved < point.obligationsTotal;
}

const pointKey = (p: ScoredPoint) => `${p.fixture}\u0000${p.prunePoint}`;

function compare(candidate: ConditionResults, reference: ConditionResults, fixtureOrder: readonly string[], seed: number) {
  const ref = new Map(reference.points.map((p) => [pointKey(p), p]));
  const pairs = candidate.points.filter((p) => ref.has(pointKey(p))).map((p) => [p, ref.get(pointKey(p))!] as const);
  const a = byFixture(candidate.summary.perFixture);
  const b = byFixture(reference.summary.perFixture);
  const fixtures = fixtureOrder.filter((f) => a.has(f) && b.has(f));
  const ra = pooledReduction(fixtures.map((f) => a.get(f)!.tokens.raw), fixtures.map((f) => a.get(f)!.tokens.final));
  const rb = pooledReduction(fixtures.map((f) => b.get(f)!.tokens.raw), fixtures.map((f) => b.get(f)!.tokens.final));
  const difference = bootstrap(fixtures.length, (idx) => {
    const x = ra(idx);
    const y = rb(idx);
    return x === null || y === null ? null : x - y;
  }, { seed, iterations: BOOTSTRAP_ITERATIONS });
  const raw = BINARY_OUTCOMES.map(({ id }) => {
    const { b: only, c: onlyRef } = discordant(pairs.map(([p]) => outcome(p, id)), pairs.map(([, q]) => outcome(q, id)));
    return { outcome: id, ...mcnemarExact(only, onlyRef) };
  });
  return { pairedPoints: pairs.length, pairedFixtures: fixtures.length, reductionDifference: difference, raw };
}

function comparisons(results: StudyResults, fixtureOrder: readonly string[], seed: number): ComparisonRow[] {
  const byName = new Map(results.conditions.map((c) => [c.summary.condition, c]));
  const present = COMPARISONS.filter((c) => byName.has(c.candidate) && byName.has(c.reference));
  const computed = present.map((c) => ({ c, r: compare(byName.get(c.candidate)!, byName.get(c.reference)!, fixtureOrder, seed) }));
  // Holm runs across every preregistered comparison present, once per outcome.
  const adjusted = BINARY_OUTCOMES.map((_, k) => holm(computed.map(({ r }) => r.raw[k]!.p)));
  return computed.map(({ c, r }, i) => ({
    ...c,
    pairedPoints: r.pairedPoints,
    pairedFixtures: r.pairedFixtures,
    reductionDifference: r.reductionDifference,
    tests: r.raw.map((t, k) => ({ ...t, pHolm: adjusted[k]![i]! })),
  }));
}

function ladder(rows: readonly ConditionRow[], results: StudyResults): LadderRow[] {
  // A ladder's rules are the Layer A mechanisms of the same name; a sweep variant is not one of them.
  const rungOf = new Map(rows.filter((r) => r.layer === 'A' && (r.sweep === null || r.sweep.base === r.condition)).map((r) => [r.condition, r.rung]));
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
        falsePruneRate: proportion(sum((f) => scored(f.falsePruneRate).numerator), sum((f) => scored(f.falsePruneRate).denominator)),
        coverage: proportion(sum((f) => scored(f.coverage).numerator), sum((f) => scored(f.coverage).denominator)),
        obligationsPreserved: proportion(sum((f) => f.obligations.preserved), sum((f) => f.obligations.total)),
        reduction: reductionOf(sumTokens(mine)),
      });
    }
  }
  return out;
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

export function analyse(results: StudyResults): Analysis {
  const fixtureOrder = results.manifest.fixtures.map((f) => f.id);
  const seed = results.manifest.seed;
  const bases = sweepBases(results.conditions);
  const rows = results.conditions.map((c) => conditionRow(c, fixtureOrder, bases, seed));
  const prunePoints = Math.max(0, ...results.conditions.map((c) => c.summary.prunePoints));
  return {
    label: results.label,
    fixtures: fixtureOrder.length,
    prunePoints,
    seed,
    iterations: BOOTSTRAP_ITERATIONS,
    exploratory: results.manifest.study.exploratory,
    preregistration: results.manifest.study.preregistration,
    rows,
    comparisons: comparisons(results, fixtureOrder, seed),
    ladder: ladder(rows, results),
    families: families(results),
    thresholds: thresholds(rows),
  };
}

/** One line naming what the figures rest on, for every caption. */
export function caption(a: Pick<Analysis, 'fixtures' | 'prunePoints' | 'exploratory' | 'preregistration'>): string {
  const study = a.exploratory || a.preregistration === null
    ? 'exploratory — not preregistered'
    : `preregistration sha256 ${a.preregistration.sha256.slice(0, 12)}`;
  return `${a.fixtures} fixtures, ${a.prunePoints} prune points; ${study}`;
}
