// The v2 table rules that need no committed results: the exploratory stamp on every table the preregistration does
// not name, and the safety threshold read on the harm rate rather than the false-prune rate among removals.
import { from } from 'arquero';
import { describe, expect, it } from 'vitest';
import { meetsSafety, type ConditionRow, type Proportion } from '../../src/report/analysis.js';
import { EXPLORATORY_STAMP, tableCsv, type ReportTable } from '../../src/report/tables.js';
import { createRegistry } from '../../src/policy/registry.js';
import { outsiderComparisons, secondaryFromRegistry } from '../../src/report/study.js';
import { throwaway } from '../support/definitions.js';

const t: ReportTable = { name: 'thresholds', title: 'T', notes: [], data: from([{ a: 1 }]), view: from([{ a: '1' }]) };

describe('exploratory stamp', () => {
  it('is the first line of the CSV of a table the preregistration does not name', () => {
    expect(tableCsv(t, { preregisteredTables: [] }).split('\n')[0]).toBe(EXPLORATORY_STAMP);
    expect(tableCsv(t, { preregisteredTables: ['measures'] }).split('\n')[0]).toBe(EXPLORATORY_STAMP);
  });

  it('is absent from a named table, whose first line is its header', () => {
    expect(tableCsv(t, { preregisteredTables: ['thresholds'] }).split('\n')[0]).toBe('a');
  });
});

describe('safety threshold on the harm rate', () => {
  const p = (n: number, d: number): Proportion => ({ numerator: n, denominator: d, value: d ? n / d : null, lo: null, hi: null });
  const row = (harm: Proportion, fpr: Proportion) => ({ harmRate: harm, falsePruneRate: fpr }) as unknown as ConditionRow;

  it('refuses a condition whose false-prune rate among removals is low but which removes many necessary items', () => {
    // Prune-everything at a 95% base rate: 5% of removals are false, yet every necessary item is gone.
    expect(meetsSafety(row(p(50, 50), p(50, 1000)), 0.05)).toBe(false);
  });

  it('accepts a condition whose harm is within the threshold even when its removals are few and one is false', () => {
    expect(meetsSafety(row(p(1, 100), p(1, 2)), 0.01)).toBe(true);
    expect(meetsSafety(row(p(0, 0), p(0, 0)), 0)).toBe(true);
  });
});

describe('secondary comparisons derived from the registry', () => {
  const registry = createRegistry([
    throwaway({ name: 'raw', layer: 'baseline' }),
    throwaway({ name: 'prune-everything', layer: 'control', prune: true, upperRisk: true }),
    throwaway({ name: 'mech-a', layer: 'A', rung: 0 }),
    throwaway({ name: 'guess', layer: 'A', rung: 4, upperRisk: true, sweep: [0.5] }),
    throwaway({ name: 'l0', layer: 'B', rung: 0 }),
    throwaway({ name: 'l1', layer: 'B', rung: 1, timed: true }),
    throwaway({ name: 'pub', layer: 'comparator' }),
  ]);
  it('pairs each Layer A mechanism with the baseline, each ladder with the previous rung, prediction and comparators with the proposal', () => {
    expect(registry.registered.map((r) => r.condition.name)).toEqual(['raw', 'prune-everything', 'mech-a', 'guess', 'l0', 'l1', 'pub', 'l1~task-boundary', 'guess@0.5']);
    expect(secondaryFromRegistry(registry, 'l1').map((c) => c.id)).toEqual([
      'mech-a-vs-raw', 'guess-vs-raw', 'l1-vs-l0', 'guess-vs-l1', 'pub-vs-l1',
    ]);
  });

  it('compares a condition the registry does not know with the baseline and the proposal, whatever its layer', () => {
    const outside = outsiderComparisons(['raw', 'mine', 'l1', 'guess@0.5', 'yours'], 'l1', registry);
    expect(outside.map((c) => [c.id, c.candidate, c.reference])).toEqual([
      ['mine-vs-raw', 'mine', 'raw'], ['mine-vs-l1', 'mine', 'l1'], ['yours-vs-raw', 'yours', 'raw'], ['yours-vs-l1', 'yours', 'l1'],
    ]);
    expect(outsiderComparisons(['mine'], null, registry).map((c) => c.id)).toEqual(['mine-vs-raw']);
  });
});
