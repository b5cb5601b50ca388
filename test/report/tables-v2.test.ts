// The v2 table rules that need no committed results: the exploratory stamp on every table the preregistration does
// not name, and the safety threshold read on the harm rate rather than the false-prune rate among removals.
import { readFileSync } from 'node:fs';
import { from } from 'arquero';
import { describe, expect, it } from 'vitest';
import { meetsSafety, type ConditionRow, type Proportion } from '../../src/report/analysis.js';
import {
  EXPLORATORY_STAMP,
  formatProportion,
  formatRatio,
  tableCsv,
  type ReportTable,
} from '../../src/report/tables.js';
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
  const p = (n: number, d: number): Proportion => ({
    numerator: n,
    denominator: d,
    value: d ? n / d : null,
    lo: null,
    hi: null,
  });
  const row = (harm: Proportion, fpr: Proportion) =>
    ({ harmRate: harm, falsePruneRate: fpr }) as unknown as ConditionRow;

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
  it('pairs each Layer A mechanism and comparator with the baseline, each ladder with the previous rung, prediction and comparators with the proposal', () => {
    expect(registry.registered.map((r) => r.condition.name)).toEqual([
      'raw',
      'prune-everything',
      'mech-a',
      'guess',
      'l0',
      'l1',
      'pub',
      'l1~task-boundary',
      'guess@0.5',
    ]);
    expect(secondaryFromRegistry(registry, 'l1').map((c) => c.id)).toEqual([
      'mech-a-vs-raw',
      'guess-vs-raw',
      'l1-vs-l0',
      'guess-vs-l1',
      'pub-vs-raw',
      'pub-vs-l1',
    ]);
  });

  it('compares a condition the registry does not know with the baseline and the proposal, whatever its layer', () => {
    const outside = outsiderComparisons(['raw', 'mine', 'l1', 'guess@0.5', 'yours'], 'l1', registry);
    expect(outside.map((c) => [c.id, c.candidate, c.reference])).toEqual([
      ['mine-vs-raw', 'mine', 'raw'],
      ['mine-vs-l1', 'mine', 'l1'],
      ['yours-vs-raw', 'yours', 'raw'],
      ['yours-vs-l1', 'yours', 'l1'],
    ]);
    expect(outsiderComparisons(['mine'], null, registry).map((c) => c.id)).toEqual(['mine-vs-raw']);
  });
});

describe('one ratio format for every table and script', () => {
  it('prints a count ratio as the tables do, undefined (never 0) over an empty denominator', () => {
    expect(formatRatio(28, 29)).toBe('28/29 = 0.966');
    expect(formatRatio(0, 0)).toBe('0/0 = undefined');
    expect(formatRatio(3, 0)).toBe('3/0 = undefined');
    const p: Proportion = { numerator: 1, denominator: 3, value: 1 / 3, lo: 0.1, hi: 0.6 };
    expect(formatProportion(p).startsWith(formatRatio(1, 3))).toBe(true);
  });

  it("the base-rate sweep formats with the report's formatters, not its own, and labels every share one way", () => {
    const script = readFileSync('scripts/base-rate.ts', 'utf8');
    expect(script).toContain("from '../src/report/tables.js'");
    expect(script).not.toMatch(/\.toFixed\(/);
    expect(script).not.toMatch(/'0\.\d+ \(main\)'|String\(share\)\)/);
  });
});
