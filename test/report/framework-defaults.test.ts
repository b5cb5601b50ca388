// "Your framework's default on our fixtures": every comparator in the results, the study's measures, a stamp per row,
// and the paired comparisons against keeping everything and the proposed ladder, from the registry.
import { describe, expect, it } from 'vitest';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { analyse } from '../../src/report/analysis.js';
import { FRAMEWORK_DEFAULTS_TABLE, frameworkDefaultsTable } from '../../src/report/framework-defaults.js';
import { loadResults, type StudyResults } from '../../src/report/load.js';
import { planOf } from '../../src/report/plan.js';
import { EXPLORATORY_STAMP, tableCsv } from '../../src/report/tables.js';
import { loadPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { RESULTS } from './support.js';

const results = loadResults(RESULTS);
const real = loadPreregistration('.', PREREGISTRATION_FILE).preregistration;
const plan = planOf(
  { ...real, analysis: { ...real.analysis, bootstrap: { ...real.analysis.bootstrap, iterations: 50 } } },
  PREREGISTRATION_FILE,
  'x',
  STUDY,
);

const stampAlone = (name: string): StudyResults => ({
  ...results,
  conditions: results.conditions.map((c) =>
    c.summary.condition === name ? { ...c, summary: { ...c.summary, exploratory: true } } : c,
  ),
});

describe('the framework-defaults table', () => {
  const a = analyse(results, plan);
  const t = frameworkDefaultsTable(a);

  it('lists every comparator in the results, and nothing else', () => {
    const comparators = results.conditions
      .filter((c) => c.summary.layer === 'comparator')
      .map((c) => c.summary.condition);
    expect(comparators.length).toBeGreaterThan(3);
    expect(t.name).toBe(FRAMEWORK_DEFAULTS_TABLE);
    expect(t.data.array('condition')).toEqual(comparators);
  });

  it("carries the study's measures with their denominators and the paired differences against raw and the ladder", () => {
    const row = t.data.objects().find((r) => (r as { condition: string }).condition === 'oldest-first') as Record<
      string,
      unknown
    >;
    const source = a.rows.find((r) => r.condition === 'oldest-first')!;
    expect(row.harm_rate_num).toBe(source.harmRate.numerator);
    expect(row.harm_rate_den).toBe(source.harmRate.denominator);
    expect(row.base_rate_den).toBe(source.baseRate.denominator);
    expect(row.defer_rate_den).toBeGreaterThan(0);
    const vsRaw = a.secondary.find((s) => s.candidate === 'oldest-first' && s.reference === 'raw');
    const vsLadder = a.secondary.find((s) => s.candidate === 'oldest-first' && s.reference === a.proposed);
    expect(vsRaw).toBeDefined();
    expect(vsLadder).toBeDefined();
    expect(row.harm_vs_raw).toBe((vsRaw!.harmDifference.estimate ?? 0).toFixed(6));
    expect(row.harm_vs_proposed).toBe((vsLadder!.harmDifference.estimate ?? 0).toFixed(6));
  });

  it('stamps each row: preregistered in the confirmatory study, exploratory when stamped alone', () => {
    // The committed study holds both kinds: the preregistered comparators and the field's defaults run beside them.
    const alone = new Set(results.conditions.filter((c) => c.summary.exploratory).map((c) => c.summary.condition));
    for (const r of t.data.objects() as { condition: string; stamp: string }[])
      expect([r.condition, r.stamp]).toEqual([r.condition, alone.has(r.condition) ? 'exploratory' : 'preregistered']);
    expect(new Set(t.data.array('stamp'))).toEqual(new Set(['preregistered', 'exploratory']));
    const stampedAlone = frameworkDefaultsTable(analyse(stampAlone('oldest-first'), plan));
    const stamps = Object.fromEntries(
      stampedAlone.data.objects().map((r) => [(r as { condition: string }).condition, (r as { stamp: string }).stamp]),
    );
    expect(stamps['oldest-first']).toBe('exploratory');
    expect(stamps['observation-masking']).toBe('preregistered');
    // The table itself is not a preregistered one, so its CSV opens with the exploratory stamp.
    expect(tableCsv(t, a).split('\n')[0]).toBe(EXPLORATORY_STAMP);
  });
});
