import { describe, expect, it } from 'vitest';
import { proportion, type Proportion } from '../../src/report/analysis.js';
import {
  all,
  evaluateCriterion,
  evaluateOutcome,
  neededDifferences,
  verdict,
  type Check,
  type ComparisonEvidence,
  type ConditionEvidence,
  type CriterionResult,
  type DifferenceEvidence,
  type Evidence,
} from '../../src/report/criteria.js';
import type { BootstrapResult } from '../../src/report/stats.js';
// The evaluator is tested on version 1's forms (the pilot), whose checks cover the false-prune kinds.
import { CRITERIA, OUTCOMES } from '../../experiments/ch10-ablation/pilot-v1/study.js';

// Small hand-built result sets: a baseline on which every criterion is met, then one change at a time whose
// verdict is known from the criterion's wording.

const boot = (estimate: number | null, lo: number | null, hi: number | null): BootstrapResult => ({
  estimate,
  lo,
  hi,
  seed: '1',
  iterations: 100,
});

interface Spec {
  fp?: [number, number];
  obligations?: [number, number];
  abstain?: [number, number];
  coverage?: [number, number];
  refetch?: number;
  reduction?: BootstrapResult;
  layer?: string;
  harm?: Proportion;
  lost?: Proportion;
}

function row(condition: string, s: Spec = {}): ConditionEvidence {
  const p = (x: [number, number] | undefined, d: [number, number]): Proportion => proportion(...(x ?? d));
  return {
    condition,
    layer: s.layer ?? 'A',
    falsePruneRate: p(s.fp, [0, 100]),
    obligationsPreserved: p(s.obligations, [50, 50]),
    abstentionRate: p(s.abstain, [0, 200]),
    coverage: p(s.coverage, [10, 40]),
    harmRate: s.harm ?? { ...proportion(0, 80), lo: 0, hi: 0 },
    obligationsLost: s.lost ?? { ...proportion(0, 50), lo: 0, hi: 0 },
    refetchAlerts: s.refetch ?? 0,
    reduction: s.reduction ?? boot(0.1, 0.05, 0.15),
  };
}

const BASE_ROWS: Record<string, Spec> = {
  raw: { layer: 'control', fp: [0, 0], reduction: boot(0, 0, 0) },
  'exact-redundancy': {},
  'source-identity': {},
  'ladder-0': {},
  'ladder-0-1': {},
  'errored-input-residue': {},
  'checked-supersession': {},
  'ladder-0-2': {},
  'verified-completion': {},
  'ladder-0-3': { abstain: [20, 200] },
  'ladder-0-4': { fp: [10, 100] },
  'same-tool-args-dedup': { fp: [5, 100] },
  'observation-masking': { fp: [5, 100] },
  'oldest-first': { fp: [5, 100] },
};

const comparison = (id: string, pHolm: number | null = 0.001, b = 30, c = 2): ComparisonEvidence => ({
  id,
  candidate: 'x',
  reference: 'y',
  test: pHolm === null ? null : { b, c, p: pHolm / 2 },
  pHolm,
});

function evidence(
  change: {
    rows?: Record<string, Spec | null>;
    comparisons?: Record<string, ComparisonEvidence | null>;
    differences?: Partial<Record<string, BootstrapResult | null>>;
  } = {},
): Evidence {
  const specs = { ...BASE_ROWS, ...change.rows };
  const rows = Object.entries(specs)
    .filter((e): e is [string, Spec] => e[1] !== null)
    .map(([name, s]) => row(name, s));
  const comps = {
    ...Object.fromEntries(['C1', 'C2', 'C3', 'C4', 'C5', 'C6', 'C7'].map((id) => [id, comparison(id)])),
    ...change.comparisons,
  };
  const diffs: Record<string, BootstrapResult | null> = {
    falsePruneRate: boot(0.1, 0.05, 0.15),
    coverage: boot(0.5, 0.4, 0.6),
    ...change.differences,
  };
  const differences: DifferenceEvidence[] = [];
  if (diffs.falsePruneRate)
    differences.push({
      measure: 'falsePruneRate',
      condition: 'ladder-0-4',
      reference: 'ladder-0-3',
      interval: diffs.falsePruneRate,
    });
  if (diffs.coverage)
    differences.push({
      measure: 'coverage',
      condition: 'ladder-0-4',
      reference: 'ladder-0-3',
      interval: diffs.coverage,
    });
  return {
    alpha: 0.05,
    rows,
    comparisons: Object.values(comps).filter((c): c is ComparisonEvidence => c !== null),
    differences,
  };
}

const WORDING = { hypothesis: 'H', criterion: 'as preregistered' };
const judge = (id: string, e: Evidence): CriterionResult =>
  evaluateCriterion(CRITERIA.find((f) => f.id === id)!, WORDING, e);
const v = (id: string, e: Evidence) => verdict(judge(id, e).truth);
const part = (r: CriterionResult, subject: string) => verdict(r.parts.find((p) => p.subject === subject)!.truth);

describe('three-valued conjunction', () => {
  it('is false on any false, else undefined on any undefined, else true', () => {
    expect(all([true, true])).toBe(true);
    expect(all([true, null])).toBeNull();
    expect(all([null, false, true])).toBe(false);
    expect(all([])).toBe(true);
  });
});

describe('acceptance criteria on hand-built results', () => {
  it('the baseline meets every criterion', () => {
    for (const f of CRITERIA) expect(v(f.id, evidence()), f.id).toBe('met');
  });

  it('A1: a single false prune or a lost obligation rejects it for that condition only; an absent condition leaves it undefined', () => {
    const one = judge('A1', evidence({ rows: { 'source-identity': { fp: [1, 400] } } }));
    expect(verdict(one.truth)).toBe('not met');
    expect(part(one, 'source-identity')).toBe('not met');
    expect(part(one, 'ladder-0')).toBe('met');
    expect(one.why).toContain('source-identity');
    expect(v('A1', evidence({ rows: { 'ladder-0-1': { obligations: [49, 50] } } }))).toBe('not met');
    expect(v('A1', evidence({ rows: { 'ladder-0': null } }))).toBe('undefined');
    // As worded: a numerator of 0 is met even when nothing was removed; the note says it is vacuous.
    const vacuous = judge('A1', evidence({ rows: { 'exact-redundancy': { fp: [0, 0] } } }));
    expect(verdict(vacuous.truth)).toBe('met');
    expect(vacuous.parts[0]!.checks[0]!.note).toContain('vacuously');
  });

  it('A2: needs a pooled reduction of at least 0.05 and a bootstrap lower end above 0, for both ladders', () => {
    expect(v('A2', evidence({ rows: { 'ladder-0-1': { reduction: boot(0.05, 0.01, 0.09) } } }))).toBe('met');
    expect(v('A2', evidence({ rows: { 'ladder-0-1': { reduction: boot(0.049, 0.01, 0.09) } } }))).toBe('not met');
    expect(v('A2', evidence({ rows: { 'ladder-0-3': { abstain: [20, 200], reduction: boot(0.2, 0, 0.3) } } }))).toBe(
      'not met',
    );
    expect(
      v('A2', evidence({ rows: { 'ladder-0-3': { abstain: [20, 200], reduction: boot(null, null, null) } } })),
    ).toBe('undefined');
  });

  it('A3: a false prune by checked supersession rejects it', () => {
    expect(v('A3', evidence({ rows: { 'checked-supersession': { fp: [2, 89] } } }))).toBe('not met');
    expect(v('A3', evidence({ rows: { 'errored-input-residue': { obligations: [0, 0] } } }))).toBe('met');
  });

  it('A4: one re-fetch alert rejects it even with no false prune', () => {
    const r = judge('A4', evidence({ rows: { 'verified-completion': { refetch: 1 } } }));
    expect(verdict(r.truth)).toBe('not met');
    expect(r.parts.find((p) => p.subject === 'verified-completion')!.checks.map((c) => verdict(c.truth))).toEqual([
      'met',
      'met',
      'not met',
    ]);
  });

  it('A5: needs a rate difference of at least 0.05, an interval excluding 0, and C1 and C2 significant after Holm', () => {
    expect(v('A5', evidence({ rows: { 'ladder-0-4': { fp: [4, 100] } } }))).toBe('not met');
    expect(v('A5', evidence({ differences: { falsePruneRate: boot(0.1, -0.01, 0.2) } }))).toBe('not met');
    expect(v('A5', evidence({ comparisons: { C2: comparison('C2', 0.2) } }))).toBe('not met');
    expect(v('A5', evidence({ comparisons: { C1: comparison('C1', null) } }))).toBe('undefined');
    expect(v('A5', evidence({ rows: { 'ladder-0-4': { fp: [0, 0] } } }))).toBe('undefined');
    // An interval wholly below 0 also excludes 0, as worded; the note says which side.
    const below = judge('A5', evidence({ differences: { falsePruneRate: boot(-0.1, -0.2, -0.05) } }));
    const check = below.parts[0]!.checks.find((c) => c.check.kind === 'difference-excludes')!;
    expect(verdict(check.truth)).toBe('met');
    expect(check.note).toContain('from below');
  });

  it('A6: judged per comparator: a Wilson lower bound of 0 or a Holm p above alpha rejects it for that comparator', () => {
    const r = judge('A6', evidence({ rows: { 'oldest-first': { fp: [0, 100] } } }));
    expect(verdict(r.truth)).toBe('not met');
    expect([part(r, 'same-tool-args-dedup'), part(r, 'observation-masking'), part(r, 'oldest-first')]).toEqual([
      'met',
      'met',
      'not met',
    ]);
    expect(v('A6', evidence({ comparisons: { C5: comparison('C5', 0.051) } }))).toBe('not met');
    expect(v('A6', evidence({ comparisons: { C5: comparison('C5', 0.05) } }))).toBe('met');
    expect(v('A6', evidence({ rows: { 'same-tool-args-dedup': { fp: [0, 0] } } }))).toBe('undefined');
    const wrongWay = judge('A6', evidence({ comparisons: { C4: comparison('C4', 0.001, 2, 30) } }));
    expect(verdict(wrongWay.truth)).toBe('met');
    expect(wrongWay.parts[0]!.checks[1]!.note).toContain('opposite');
  });

  it('A7: needs abstention of at least 0.05, C7 significant and a coverage-difference interval above 0', () => {
    expect(v('A7', evidence({ rows: { 'ladder-0-3': { abstain: [9, 200] } } }))).toBe('not met');
    expect(v('A7', evidence({ rows: { 'ladder-0-3': { abstain: [10, 200] } } }))).toBe('met');
    expect(v('A7', evidence({ differences: { coverage: boot(0.3, 0, 0.6) } }))).toBe('not met');
    expect(v('A7', evidence({ differences: { coverage: null } }))).toBe('undefined');
    expect(v('A7', evidence({ comparisons: { C7: comparison('C7', 0.5) } }))).toBe('not met');
  });
});

describe('the outcome table on hand-built results', () => {
  const outcomes = (e: Evidence) => {
    const crit = CRITERIA.map((f) => evaluateCriterion(f, WORDING, e));
    return new Map(OUTCOMES.map((o) => [o.id, evaluateOutcome(o, { pattern: o.id, meaning: '' }, crit, e)]));
  };

  it('O1 or O2 by A1 and A2; undefined when A2 is', () => {
    const met = outcomes(evidence());
    expect([met.get('O1')!.status, met.get('O2')!.status]).toEqual(['holds', 'does not hold']);
    const low = outcomes(evidence({ rows: { 'ladder-0-1': { reduction: boot(0.01, 0.005, 0.02) } } }));
    expect([low.get('O1')!.status, low.get('O2')!.status]).toEqual(['does not hold', 'holds']);
    const open = outcomes(evidence({ rows: { 'ladder-0-1': { reduction: boot(null, null, null) } } }));
    expect(open.get('O2')!.status).toBe('undefined');
  });

  it('O7 holds for each comparator A6 is met for, and names them', () => {
    const o = outcomes(evidence({ rows: { 'oldest-first': { fp: [0, 100] } } })).get('O7')!;
    expect(o.status).toBe('holds');
    expect(o.detail).toContain('same-tool-args-dedup, observation-masking');
    expect(o.detail).not.toContain('oldest-first');
    const none = outcomes(
      evidence({ comparisons: { C4: comparison('C4', 1), C5: comparison('C5', 1), C6: comparison('C6', 1) } }),
    ).get('O7')!;
    expect(none.status).toBe('does not hold');
  });

  it('O3/O4/O5/O6/O8 follow the verdict their pattern names', () => {
    const bad = outcomes(
      evidence({
        rows: { 'ladder-0-2': { fp: [1, 10] }, 'verified-completion': { refetch: 2 } },
        comparisons: { C1: comparison('C1', 0.9) },
      }),
    );
    expect(['O3', 'O4', 'O5', 'O6', 'O8'].map((id) => bad.get(id)!.status)).toEqual([
      'holds',
      'holds',
      'does not hold',
      'holds',
      'holds',
    ]);
    const good = outcomes(evidence());
    expect(['O3', 'O4', 'O5', 'O6'].map((id) => good.get(id)!.status)).toEqual([
      'does not hold',
      'does not hold',
      'holds',
      'does not hold',
    ]);
  });

  it('O9 and O10 are not evaluable, with the reason; O11 holds only when no condition reduces', () => {
    const o = outcomes(evidence());
    expect(o.get('O9')!.status).toBe('not evaluable');
    expect(o.get('O10')!.detail).toContain('behaviour');
    expect(o.get('O11')!.status).toBe('does not hold');
    const flat = Object.fromEntries(
      Object.entries(BASE_ROWS).map(([k, s]) => [k, { ...s, reduction: boot(0.01, -0.01, 0.03) }]),
    );
    expect(outcomes(evidence({ rows: flat })).get('O11')!.status).toBe('holds');
  });

  it('O6 and O10 say which backend ran when the manifest names a non-embedded predictor or reader, and read as worded otherwise', () => {
    const bad = {
      rows: { 'ladder-0-2': { fp: [1, 10] as [number, number] } },
      comparisons: { C1: comparison('C1', 0.9) },
    };
    const embedded = [
      { role: 'predictor', provider: 'embedded', model: null },
      { role: 'reader', provider: 'embedded', model: null },
    ];
    const asWorded = outcomes({ ...evidence(bad), models: embedded });
    expect(asWorded.get('O6')!.status).toBe('holds');
    expect(asWorded.get('O10')!.detail).toContain('no model is run on pruned contexts');
    const predictor = outcomes({
      ...evidence(bad),
      models: [{ role: 'predictor', provider: 'anthropic', model: 'claude-x' }, embedded[1]!],
    });
    expect(predictor.get('O6')!.status).toBe('not evaluable');
    expect(predictor.get('O6')!.detail).toContain('not the preregistered backend: predictor anthropic/claude-x');
    expect(predictor.get('O10')!.detail).toContain('no model is run on pruned contexts');
    const reader = outcomes({
      ...evidence(bad),
      models: [embedded[0]!, { role: 'reader', provider: 'openai', model: 'gpt-x' }],
    });
    expect(reader.get('O6')!.status).toBe('holds');
    expect(reader.get('O10')!.status).toBe('not evaluable');
    expect(reader.get('O10')!.detail).toContain('not the preregistered backend: reader openai/gpt-x');
    expect(reader.get('O10')!.detail).not.toContain('no model is run');
  });
});

describe('the v2 safety checks', () => {
  const harm = (n: number, d: number, lo: number | null, hi: number | null): Proportion => ({
    numerator: n,
    denominator: d,
    value: d === 0 ? null : n / d,
    lo,
    hi,
  });
  const check = (c: Check, spec: Spec = {}, differences: DifferenceEvidence[] = []) => {
    const e = { alpha: 0.05, rows: [row('ladder-0-3', spec), row('ladder-0-4')], comparisons: [], differences };
    return evaluateCriterion({ id: 'X', wording: '', parts: [{ subject: 's', checks: [c] }] }, WORDING, e).truth;
  };
  const atMost = (threshold: number): Check => ({
    kind: 'rate-at-most',
    condition: 'ladder-0-3',
    measure: 'harmRate',
    threshold,
  });
  const upper = (bound: number): Check => ({
    kind: 'bootstrap-upper-below',
    condition: 'ladder-0-3',
    measure: 'obligationsLost',
    bound,
  });

  it('rate-at-most holds at and below the threshold, fails above, is undefined at 0/0', () => {
    expect(check(atMost(0.05), { harm: harm(4, 80, 0.01, 0.1) })).toBe(true);
    expect(check(atMost(0.05), { harm: harm(5, 80, 0.01, 0.1) })).toBe(false);
    expect(check(atMost(0.05), { harm: harm(0, 0, null, null) })).toBeNull();
  });

  it('bootstrap-upper-below needs the upper end strictly below the bound, and is undefined without an interval', () => {
    expect(check(upper(0.1), { lost: harm(1, 50, 0, 0.09) })).toBe(true);
    expect(check(upper(0.1), { lost: harm(1, 50, 0, 0.1) })).toBe(false);
    expect(check(upper(0.1), { lost: harm(0, 0, null, null) })).toBeNull();
  });

  it('difference-below reads the upper end of the paired interval of the named measure', () => {
    const below = (bound: number): Check => ({
      kind: 'difference-below',
      condition: 'ladder-0-4',
      reference: 'ladder-0-3',
      measure: 'harmRate',
      bound,
    });
    const d = (lo: number, hi: number): DifferenceEvidence[] => [
      { measure: 'harmRate', condition: 'ladder-0-4', reference: 'ladder-0-3', interval: boot((lo + hi) / 2, lo, hi) },
    ];
    expect(check(below(0.02), {}, d(-0.01, 0.01))).toBe(true);
    expect(check(below(0.02), {}, d(-0.01, 0.03))).toBe(false);
    // Another measure's interval is not this one's.
    expect(check(below(0.02), {}, [{ ...d(-0.01, 0.01)[0]!, measure: 'coverage' }])).toBeNull();
  });

  it('asks the analysis for every difference a difference-below check needs', () => {
    const form = {
      id: 'X',
      wording: '',
      parts: [
        {
          subject: 's',
          checks: [
            {
              kind: 'difference-below',
              condition: 'a',
              reference: 'b',
              measure: 'obligationsLost',
              bound: 0,
            } satisfies Check,
          ],
        },
      ],
    };
    expect(neededDifferences([form])).toEqual([{ measure: 'obligationsLost', condition: 'a', reference: 'b' }]);
  });
});
