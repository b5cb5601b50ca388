// The ladder table's marginal columns: each ladder against the ladder it extends. A timing variant is read against
// the ladder it times (the preregistration's timing analysis compares it with ladder-0-3), never against whichever
// row happens to precede it; and Δ obligations lost is counted in the primary measure's units, as its column is.
import { describe, expect, it } from 'vitest';
import { ladderReferences, timingBaseOf } from '../../src/report/analysis.js';
import { buildTables } from '../../src/report/tables.js';
import { quickAnalysis } from './support.js';

describe('ladder references', () => {
  it('reads a timing variant against the ladder it times and a ladder against the one below it', () => {
    expect(timingBaseOf('ladder-0-3~task-boundary')).toBe('ladder-0-3');
    expect(timingBaseOf('ladder-0-3')).toBeNull();
    expect(
      ladderReferences([
        'ladder-0',
        'ladder-0-1',
        'ladder-0-3',
        'ladder-0-4',
        'ladder-0-3~task-boundary',
        'ladder-0-3~pressure-0.8',
        'ladder-0-5',
      ]),
    ).toEqual([null, 'ladder-0', 'ladder-0-1', 'ladder-0-3', 'ladder-0-3', 'ladder-0-3', 'ladder-0-4']);
  });
});

describe('the committed ladder table', () => {
  const a = quickAnalysis();
  const byName = new Map(a.ladder.map((l) => [l.condition, l]));

  it('compares every timing variant with ladder-0-3', () => {
    const base = byName.get('ladder-0-3')!.row;
    for (const name of ['ladder-0-3~task-boundary', 'ladder-0-3~pressure-0.8', 'ladder-0-3~cache-safe']) {
      const l = byName.get(name)!;
      expect(l.previous, name).toBe('ladder-0-3');
      expect(l.marginal!.prunes, name).toBe(l.row.prunes - base.prunes);
      expect(l.marginal!.reduction!, name).toBeCloseTo(l.row.reduction.estimate! - base.reduction.estimate!, 12);
    }
  });

  it('counts Δ obligations lost once per (fixture, obligation), as the obligations-lost column does', () => {
    for (const l of a.ladder) {
      if (l.marginal === null) continue;
      const prev = byName.get(l.previous!)!.row;
      expect(l.marginal.obligationsLost, l.condition).toBe(
        l.row.obligationsLost.numerator - prev.obligationsLost.numerator,
      );
    }
    const view = buildTables(a).find((t) => t.name === 'ladder')!.view;
    expect(view.columnNames()).toContain('obligations lost');
    expect(view.columnNames()).toContain('against');
  });
});
