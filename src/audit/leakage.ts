// The leak audit: does any single visible feature of an item predict the oracle's label? For each feature a simple
// classifier (./classifiers.ts) is fitted on one half of the fixtures and scored by ROC AUC (./auc.ts) on the other,
// then the other way round. Halves are drawn by a seeded hash of the fixture id, never by item, so an episode's
// items, which share ids, tools and phrasing, are never split between fitting and scoring.
import { csvTable } from '../artifacts/csv.js';
import { sha256 } from '../fixture/canonical.js';
import { deepFreeze } from '../fixture/freeze.js';
import type { Fixture, Oracle } from '../fixture/schema.js';
import { buildView, type TokensOf } from '../fixture/view.js';
import { rocAuc } from './auc.js';
import { fitScorer } from './classifiers.js';
import { FEATURES, type Feature, type FeatureValue } from '../policy/controls/features.js';
import { removableAlone } from './labels.js';
import { LINE_FEATURES } from './line-features.js';

/**
 * The bar an illegitimate feature's AUC must not exceed. At 0.6 a policy ranking items by the feature puts a
 * removable item above a necessary one 60 times in 100 instead of 50 (docs/fixtures.md, "Leak audit").
 */
export const DEFAULT_MAX_AUC = 0.6;

/**
 * What the audit scores: every feature the controls read (src/policy/controls/features.ts), then the line-level ones
 * only the audit reads (./line-features.ts), alone and crossed with the item's tool name and kind.
 */
export const AUDIT_FEATURES: readonly Feature[] = [...FEATURES, ...LINE_FEATURES];

export interface AuditInput {
  readonly fixture: Fixture;
  readonly oracle: Oracle;
}

/** One column per feature, one entry per (fixture, prune point, item in context) row. */
export interface AuditRows {
  readonly fixtureIds: readonly string[];
  readonly labels: readonly boolean[];
  readonly values: readonly (readonly FeatureValue[])[];
}

export function auditRows(
  inputs: readonly AuditInput[],
  tokens: TokensOf,
  features: readonly Feature[] = AUDIT_FEATURES,
): AuditRows {
  const fixtureIds: string[] = [];
  const labels: boolean[] = [];
  const values: FeatureValue[][] = features.map(() => []);
  for (const { fixture, oracle } of inputs) {
    // Frozen, as a run freezes its fixtures: then every prune point's view is linked to the fixture's items, and the
    // line features share their searches across a fixture's points (./line-features.ts).
    deepFreeze(fixture);
    for (const point of oracle.points) {
      const view = buildView(fixture, point.prunePoint, tokens);
      const removable = removableAlone(point);
      view.items.forEach((item, index) => {
        fixtureIds.push(fixture.id);
        labels.push(removable.has(item.id));
        features.forEach((f, k) => values[k]!.push(f.of(view, index)));
      });
    }
  }
  return { fixtureIds, labels, values };
}

/** Which half a fixture falls in: the low bit of sha256("<seed>:<fixture id>"). */
export function halfOf(fixtureId: string, seed: number): 'A' | 'B' {
  return parseInt(sha256(`${seed}:${fixtureId}`).slice(-1), 16) % 2 === 0 ? 'A' : 'B';
}

export type Verdict = 'PASS' | 'FAIL' | 'n/a' | 'not judged';

export interface FeatureResult {
  readonly feature: string;
  readonly legitimate: boolean;
  readonly why: string;
  readonly aucAtoB: number | null;
  readonly aucBtoA: number | null;
  readonly auc: number | null;
  readonly verdict: Verdict;
}

export interface LeakageReport {
  readonly seed: number;
  readonly maxAuc: number;
  readonly rows: number;
  readonly removable: number;
  readonly fixtures: { readonly A: number; readonly B: number };
  readonly halfRows: { readonly A: number; readonly B: number };
  readonly features: readonly FeatureResult[];
  /** The illegitimate features whose mean AUC is above the bar. */
  readonly failed: readonly string[];
}

export function auditLeakage(
  rows: AuditRows,
  options: { seed: number; maxAuc: number },
  features: readonly Feature[] = AUDIT_FEATURES,
): LeakageReport {
  const halves = new Map<string, 'A' | 'B'>();
  for (const id of rows.fixtureIds) if (!halves.has(id)) halves.set(id, halfOf(id, options.seed));
  const half = rows.fixtureIds.map((id) => halves.get(id)!);
  const pick = <T>(list: readonly T[], h: 'A' | 'B') => list.filter((_, i) => half[i] === h);
  const labelsOf = { A: pick(rows.labels, 'A'), B: pick(rows.labels, 'B') };
  const results = features.map((f, k): FeatureResult => {
    const column = rows.values[k]!;
    const valuesOf = { A: pick(column, 'A'), B: pick(column, 'B') };
    const across = (fit: 'A' | 'B', score: 'A' | 'B'): number | null => {
      if (valuesOf[fit].length === 0 || valuesOf[score].length === 0) return null;
      const scorer = fitScorer(valuesOf[fit], labelsOf[fit]);
      return rocAuc(valuesOf[score].map(scorer), labelsOf[score]);
    };
    const aucAtoB = across('A', 'B');
    const aucBtoA = across('B', 'A');
    const auc = aucAtoB === null || aucBtoA === null ? null : (aucAtoB + aucBtoA) / 2;
    const verdict: Verdict = f.legitimate
      ? 'not judged'
      : auc === null
        ? 'n/a'
        : auc > options.maxAuc
          ? 'FAIL'
          : 'PASS';
    return { feature: f.name, legitimate: f.legitimate, why: f.why, aucAtoB, aucBtoA, auc, verdict };
  });
  const count = (h: 'A' | 'B') => [...halves.values()].filter((x) => x === h).length;
  return {
    seed: options.seed,
    maxAuc: options.maxAuc,
    rows: rows.labels.length,
    removable: rows.labels.filter(Boolean).length,
    fixtures: { A: count('A'), B: count('B') },
    halfRows: { A: labelsOf.A.length, B: labelsOf.B.length },
    features: results,
    failed: results.filter((r) => r.verdict === 'FAIL').map((r) => r.feature),
  };
}

const fixed = (x: number | null, digits = 3): string => (x === null ? 'n/a' : x.toFixed(digits));

export function leakageMarkdown(report: LeakageReport, corpus: string): string {
  const base = report.rows === 0 ? null : report.removable / report.rows;
  return [
    `# Leak audit of ${corpus}`,
    '',
    `${report.rows} rows (fixture, prune point, item in context) from ${report.fixtures.A + report.fixtures.B} fixtures; ` +
      `${report.removable} removable alone (base rate ${fixed(base)}). Halves by a hash of the fixture id (seed ${report.seed}): ` +
      `A ${report.fixtures.A} fixtures, ${report.halfRows.A} rows; B ${report.fixtures.B} fixtures, ${report.halfRows.B} rows. ` +
      `Each feature's classifier is fitted on one half and scored on the other by ROC AUC (ties count one half). ` +
      `An illegitimate feature FAILS when the mean of both directions is above ${fixed(report.maxAuc, 2)}; legitimate features are reported, not judged.`,
    '',
    '| feature | legitimate | AUC A→B | AUC B→A | AUC mean | verdict | why |',
    '|---|---|---|---|---|---|---|',
    ...report.features.map(
      (r) =>
        `| ${r.feature} | ${r.legitimate ? 'yes' : 'no'} | ${fixed(r.aucAtoB)} | ${fixed(r.aucBtoA)} | ${fixed(r.auc)} | ${r.verdict} | ${r.why} |`,
    ),
    '',
    report.failed.length === 0
      ? `Result: PASS (no illegitimate feature above AUC ${fixed(report.maxAuc, 2)}).`
      : `Result: FAIL (${report.failed.join(', ')} above AUC ${fixed(report.maxAuc, 2)}).`,
    '',
  ].join('\n');
}

export const LEAKAGE_CSV_COLUMNS = [
  'feature',
  'legitimate',
  'rows',
  'removable',
  'base_rate',
  'auc_a_to_b',
  'auc_b_to_a',
  'auc_mean',
  'max_auc',
  'verdict',
  'why',
] as const;

export function leakageCsv(report: LeakageReport): string {
  const base = report.rows === 0 ? null : Number((report.removable / report.rows).toFixed(6));
  const round = (x: number | null) => (x === null ? null : Number(x.toFixed(6)));
  return csvTable([
    [...LEAKAGE_CSV_COLUMNS],
    ...report.features.map((r) => [
      r.feature,
      r.legitimate,
      report.rows,
      report.removable,
      base,
      round(r.aucAtoB),
      round(r.aucBtoA),
      round(r.auc),
      report.maxAuc,
      r.verdict,
      r.why,
    ]),
  ]);
}
