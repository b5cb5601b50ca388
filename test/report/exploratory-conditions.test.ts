// A condition the preregistration does not name runs beside the study stamped exploratory alone: the report marks its
// rows, and no preregistered comparison, difference or verdict ever reads it.
import { describe, expect, it } from 'vitest';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { analyse, confirmatoryOnly } from '../../src/report/analysis.js';
import { loadResults, type StudyResults } from '../../src/report/load.js';
import { planOf } from '../../src/report/plan.js';
import { buildTables } from '../../src/report/tables.js';
import { loadPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';
import { RESULTS } from './support.js';

const results = loadResults(RESULTS);
const real = structuredClone(loadPreregistration('.', PREREGISTRATION_FILE).preregistration);
// Few bootstrap draws: the test is about which conditions are read, not about the intervals.
const plan = planOf(
  { ...real, analysis: { ...real.analysis, bootstrap: { ...real.analysis.bootstrap, iterations: 50 } } },
  PREREGISTRATION_FILE,
  'x',
  STUDY,
);

function stamped(names: readonly string[], wholeRun = false): StudyResults {
  return {
    ...results,
    manifest: { ...results.manifest, study: { ...results.manifest.study, exploratory: wholeRun } },
    conditions: results.conditions.map((c) =>
      wholeRun || names.includes(c.summary.condition) ? { ...c, summary: { ...c.summary, exploratory: true } } : c,
    ),
  };
}

describe('conditions stamped exploratory alone', () => {
  const base = analyse(results, plan);

  it('are committed as confirmatory today, so the comparison below starts from verdicts that read ladder-0-3', () => {
    expect(results.manifest.study.exploratory).toBe(false);
    expect(base.comparisons.find((c) => c.id === 'C1')?.test).not.toBeNull();
  });

  it('are never read by a preregistered comparison or verdict, and are marked in the tables', () => {
    const a = analyse(stamped(['ladder-0-3']), plan);
    expect(a.exploratory).toBe(false);
    expect(a.rows.find((r) => r.condition === 'ladder-0-3')?.exploratory).toBe(true);
    expect(a.rows.find((r) => r.condition === 'ladder-0-4')?.exploratory).toBe(false);
    for (const c of a.comparisons.filter((x) => x.candidate === 'ladder-0-3' || x.reference === 'ladder-0-3')) {
      expect(c.test, c.id).toBeNull();
      expect(c.missing, c.id).toContain('ladder-0-3');
    }
    expect(a.differences.some((d) => d.condition === 'ladder-0-3' || d.reference === 'ladder-0-3')).toBe(false);
    // Every check that read ladder-0-3's figures is now undefined: it is met or not met from other figures only.
    const reads = (check: object) => Object.values(check).includes('ladder-0-3');
    const checks = (x: typeof base) => x.acceptance.flatMap((c) => c.parts.flatMap((p) => p.checks));
    const before = checks(base).filter((c) => reads(c.check));
    expect(before.some((c) => c.truth !== null)).toBe(true);
    const after = checks(a).filter((c) => reads(c.check));
    expect(after).toHaveLength(before.length);
    for (const c of after) expect(c.truth, c.test).toBeNull();
    const comparators = buildTables(a).find((t) => t.name === 'comparators')!;
    expect(comparators.view.array('condition')).toContain('ladder-0-3 (exploratory)');
  });

  it('leave the verdicts alone when no verdict names them', () => {
    const named = new Set(
      base.acceptance.flatMap((c) => c.parts.flatMap((p) => p.checks.flatMap((k) => Object.values(k.check)))),
    );
    for (const c of base.comparisons) named.add(c.candidate).add(c.reference);
    const free = results.conditions.map((c) => c.summary.condition).find((n) => !named.has(n));
    expect(free).toBeDefined();
    const unnamed = stamped([free!]);
    expect(confirmatoryOnly(unnamed).conditions.map((c) => c.summary.condition)).not.toContain(free);
    const a = analyse(unnamed, plan);
    expect(a.acceptance.map((c) => c.truth)).toEqual(base.acceptance.map((c) => c.truth));
    expect(a.rows.find((r) => r.condition === free)?.exploratory).toBe(true);
  });

  it('in an exploratory run, every condition is read (the whole report is stamped instead)', () => {
    const whole = stamped([], true);
    expect(confirmatoryOnly(whole).conditions).toHaveLength(results.conditions.length);
    const a = analyse(whole, plan);
    expect(a.exploratory).toBe(true);
    expect(a.rows.every((r) => !r.exploratory)).toBe(true);
    expect(a.acceptance.map((c) => c.truth)).toEqual(base.acceptance.map((c) => c.truth));
  });
});
