// Small things the tables print: a difference that rounds to zero is 0.000, never "-0.000"; a threshold no variant
// meets says "none qualifies", not "undefined" (which means 0/0); and the secondary comparisons' count column is named
// for what their tests pair.
import { describe, expect, it } from 'vitest';
import type { Analysis, ConditionRow, LadderRow, SecondaryComparisonRow } from '../../src/report/analysis.js';
import { buildTables, fixed, NONE_QUALIFIES, type ReportTable } from '../../src/report/tables.js';

const p = { numerator: 1, denominator: 10, value: 0.1, lo: 0, hi: 0.2 };
const interval = { estimate: 0.5, lo: 0.4, hi: 0.6, seed: '1', iterations: 10 };
const row = (condition: string) =>
  ({
    condition,
    exploratory: false,
    layer: 'B',
    rung: 1,
    upperRisk: false,
    sweep: null,
    fixtures: 2,
    prunePoints: 4,
    prunes: 10,
    precision: p,
    falsePruneRate: p,
    coverage: p,
    abstentionRate: p,
    deferRate: p,
    obligationsPreserved: p,
    harmRate: p,
    obligationsLost: p,
    baseRate: p,
    refetchAlerts: 0,
    tokens: { raw: 100, removed: 50, placeholder: 0, overhead: 0, final: 50 },
    reduction: interval,
    cost: null,
    economics: [],
  }) as unknown as ConditionRow;

const ladder: LadderRow = {
  condition: 'ladder-0-1',
  previous: 'ladder-0',
  row: row('ladder-0-1'),
  removedBy: [],
  marginal: { reduction: -0.00002, prunes: 1, falsePrunes: 0, truePrunes: 1, obligationsLost: 0 },
};
const secondary: SecondaryComparisonRow = {
  id: 's1',
  candidate: 'ladder-0-1',
  reference: 'ladder-0',
  question: 'q',
  pairedPoints: 4,
  pairedFixtures: 2,
  reductionDifference: { ...interval, estimate: -0.00001, lo: -0.0002, hi: 0.0001 },
  harmDifference: interval,
  tests: [{ outcome: 'harmRate', unit: 'fixture', b: 0, c: 0, p: 1 }],
};

function analysis(pairedUnit: 'fixture' | 'prune point'): Analysis {
  return {
    fixtures: 2,
    prunePoints: 4,
    seed: 1,
    iterations: 10,
    exploratory: false,
    preregistration: { file: 'p.json', sha256: 'x'.repeat(64) },
    preregisteredTables: [],
    rows: [row('ladder-0'), row('ladder-0-1')],
    comparisons: [],
    secondary: [secondary],
    ladder: [ladder],
    families: [],
    thresholds: [
      { curve: 'ladder-0-1', threshold: 0, best: null, variants: 1 },
      { curve: 'ladder-0-1', threshold: 0.05, best: row('ladder-0-1'), variants: 1 },
    ],
    corpora: [],
    behaviour: [],
    pointOutcomes: [],
    plan: { file: 'p.json', sha256: 'x' },
    proposed: null,
    pairedUnit,
  } as unknown as Analysis;
}

const view = (t: ReportTable) => t.view.objects() as Record<string, string>[];
const data = (t: ReportTable) => t.data.objects() as Record<string, string | number>[];
const named = (a: Analysis, name: string) => buildTables(a).find((t) => t.name === name)!;

describe('table wording', () => {
  it('prints a value that rounds to zero as 0.000, never -0.000', () => {
    expect(fixed(-0.00002, 3)).toBe('0.000');
    expect(fixed(-0.0000001, 6)).toBe('0.000000');
    expect(fixed(-0.0004, 3)).toBe('0.000');
    expect(fixed(-0.0006, 3)).toBe('-0.001');
    expect(fixed(-0.00002, 6)).toBe('-0.000020');
    expect(fixed(null, 3)).toBe('undefined');
  });

  it("the ladder's Δ reduction of -0.00002 is 0.000, and so is a secondary interval bound", () => {
    const a = analysis('fixture');
    expect(view(named(a, 'ladder'))[0]!['Δ reduction']).toBe('0.000');
    expect(data(named(a, 'ladder'))[0]!['marginal_reduction']).toBe('-0.000020');
    expect(view(named(a, 'comparisons-secondary'))[0]!['Δ reduction']).toBe('0.000 [0.000, 0.000]');
  });

  it('says "none qualifies" where no variant meets a threshold, and never "undefined" there', () => {
    const t = named(analysis('fixture'), 'thresholds');
    const [none, some] = view(t);
    expect(none!['best variant']).toBe(NONE_QUALIFIES);
    expect(Object.values(none!)).not.toContain('undefined');
    expect(some!['best variant']).toBe('ladder-0-1');
    const [noneData] = data(t);
    expect(noneData!['best']).toBe(NONE_QUALIFIES);
    expect(Object.values(noneData!)).not.toContain('undefined');
    expect(t.notes.join(' ')).toContain('"none qualifies" when no variant does');
  });

  it("names the secondary comparisons' count column for what their tests pair", () => {
    const byFixture = view(named(analysis('fixture'), 'comparisons-secondary'))[0]!;
    expect(byFixture['paired fixtures']).toBe('2');
    expect(byFixture).not.toHaveProperty('paired points');
    const byPoint = view(named(analysis('prune point'), 'comparisons-secondary'))[0]!;
    expect(byPoint['paired points']).toBe('4');
    expect(byPoint).not.toHaveProperty('paired fixtures');
  });
});
