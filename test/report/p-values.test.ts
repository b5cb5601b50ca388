// A p-value is never written as 0: the exact tests here give tiny but positive p-values, and a CSV column of
// 0.000000 reads as a p-value of 0.
import { describe, expect, it } from 'vitest';
import type { Analysis } from '../../src/report/analysis.js';
import { buildTables, pColumn } from '../../src/report/tables.js';

describe('p-values in the tables', () => {
  it('keep six significant digits, however small', () => {
    expect(pColumn(9.45457e-125)).toBe('9.45457e-125');
    expect(Number(pColumn(1.2512591365800114e-45))).toBeGreaterThan(0);
    expect(pColumn(1)).toBe('1.00000');
    expect(pColumn(null)).toBe('');
  });

  it('are written so in the preregistered comparisons and the secondary ones', () => {
    const test = { outcome: 'harmRate', unit: 'fixture' as const, b: 413, c: 0, p: 9.45e-125 };
    const a = {
      label: 'x',
      fixtures: 2,
      prunePoints: 2,
      seed: 1,
      iterations: 10,
      alpha: 0.05,
      exploratory: false,
      preregistration: null,
      plan: { file: 'p.json', sha256: 'x' },
      pointOutcomes: [],
      rows: [],
      comparisons: [
        {
          id: 'C1',
          candidate: 'a',
          reference: 'b',
          outcome: 'harmRate',
          hypothesis: 'H5',
          expected: 'more',
          pairedPoints: 2,
          pairedFixtures: 2,
          test,
          pHolm: 5.67e-124,
          significant: true,
          missing: null,
        },
      ],
      secondary: [
        {
          id: 'a-vs-b',
          candidate: 'a',
          reference: 'b',
          question: 'q',
          pairedPoints: 2,
          pairedFixtures: 2,
          reductionDifference: { estimate: 0.1, lo: 0, hi: 0.2, seed: '1', iterations: 10 },
          harmDifference: { estimate: 0.1, lo: 0, hi: 0.2, seed: '1', iterations: 10 },
          tests: [test],
        },
      ],
      differences: [],
      acceptance: [],
      outcomes: [],
      ladder: [],
      families: [],
      thresholds: [],
      corpora: [],
      proposed: null,
      pairedUnit: 'fixture',
      preregisteredTables: [],
      behaviour: [],
    } as unknown as Analysis;
    const tables = buildTables(a);
    const comparisons = tables.find((t) => t.name === 'comparisons')!.data.objects()[0] as Record<string, string>;
    expect(comparisons.p).toBe('9.45000e-125');
    expect(comparisons.p_holm).toBe('5.67000e-124');
    const secondary = tables.find((t) => t.name === 'comparisons-secondary')!;
    expect((secondary.data.objects()[0] as Record<string, string>).harmRate_p_unadjusted).toBe('9.45000e-125');
    expect((secondary.view.objects()[0] as Record<string, string>).harmRate).toBe(
      'b=413, c=0, p=9.45e-125 (unadjusted)',
    );
  });
});
