// Timing variants: a condition that declares its own timing DEFERs what its base would PRUNE when the timing is not
// due, records why, applies nothing, and PRUNEs exactly what its base prunes when it is due; the run's --timing does
// not override it.
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { runStudy } from '../../src/engine/run.js';
import { loadFixture } from '../../src/load/fixtures.js';
import { allConditions, conditionNames, getCondition, PREDICTOR_CONSUMERS } from '../../src/policy/registry.js';
import { timed, timedName } from '../../src/policy/timed.js';
import type { Timing } from '../../src/timing/timing.js';
import { isTiming } from '../../src/timing/timing.js';
import { minimalFixture, minimalOracle, writeFixture } from '../support/minimal.js';

const tokens = tokenCounter();

/** The minimal fixture (two identical listings: rung 0 makes the older one eligible) at one prune point. */
function run(
  name: string,
  point: { budgetTokens: number; taskBoundary: boolean },
  runTiming: Timing = { kind: 'immediate' },
) {
  const f = minimalFixture();
  Object.assign(f.prunePoints[0]!, point);
  const { file } = writeFixture(f, minimalOracle());
  const loaded = loadFixture(file, process.cwd());
  const conditions = [getCondition('ladder-0-3')!, getCondition(name)!];
  const [base, variant] = runStudy({
    conditions,
    fixtures: [loaded],
    timing: runTiming,
    placeholders: 'marker',
    tokens,
  });
  return { base: base!, variant: variant! };
}

const decisions = (r: { records: readonly { itemId: string; decision: string }[] }) =>
  Object.fromEntries(r.records.map((x) => [x.itemId, x.decision]));

describe('timing variants of a condition', () => {
  it('are registered as ladder-0-3~task-boundary and ladder-0-3~pressure-0.8, after ladder-0-4, consulting the predictor', () => {
    const names = conditionNames();
    expect(names.slice(names.indexOf('ladder-0-4') + 1, names.indexOf('ladder-0-4') + 3)).toEqual([
      'ladder-0-3~task-boundary',
      'ladder-0-3~pressure-0.8',
    ]);
    expect(timedName('ladder-0-3', { kind: 'pressure', threshold: 0.8 })).toBe('ladder-0-3~pressure-0.8');
    expect(PREDICTOR_CONSUMERS).toEqual(
      expect.arrayContaining(['ladder-0-3~task-boundary', 'ladder-0-3~pressure-0.8']),
    );
    const v = getCondition('ladder-0-3~task-boundary')!;
    expect(v.timing).toEqual({ kind: 'task-boundary' });
    expect(v.parameters['timing']).toBe('task-boundary');
    expect(
      allConditions()
        .filter((c) => c.timing === undefined)
        .map((c) => c.name),
    ).not.toContain('ladder-0-3~task-boundary');
  });

  it('task-boundary: DEFERs every removal its base makes at a point that is not a boundary, with the reason, and removes nothing', () => {
    const { base, variant } = run('ladder-0-3~task-boundary', { budgetTokens: 1000, taskBoundary: false });
    const pruned = base.records.filter((r) => r.decision === 'PRUNE').map((r) => r.itemId);
    expect(pruned.length).toBeGreaterThan(0);
    for (const r of variant.records.filter((x) => pruned.includes(x.itemId))) {
      expect(r.decision).toBe('DEFER');
      expect(r.eligibility).toBe('eligible');
      expect(r.timing).toEqual({ policy: 'task-boundary', reason: 'not a task boundary: postponed to the next one' });
      expect(r.appliedAt).toBeNull();
      expect(r.placeholder).toBeNull();
    }
    expect(variant.records.some((r) => r.decision === 'PRUNE')).toBe(false);
    expect(variant.summary.timing).toBe('task-boundary');
    expect(base.summary.timing).toBe('immediate');
  });

  it("task-boundary: PRUNEs exactly what its base prunes at a boundary, whatever the run's timing", () => {
    const { base, variant } = run(
      'ladder-0-3~task-boundary',
      { budgetTokens: 1000, taskBoundary: true },
      { kind: 'pressure', threshold: 0.99 },
    );
    // the run's pressure timing defers the base (the context is far below 99% of its budget) ...
    expect(base.records.some((r) => r.decision === 'DEFER')).toBe(true);
    // ... but not the variant, which runs with its own timing
    const { base: immediate } = run('ladder-0-3~task-boundary', { budgetTokens: 1000, taskBoundary: true });
    expect(decisions(variant)).toEqual(decisions(immediate));
    expect(variant.records.find((r) => r.decision === 'PRUNE')?.timing).toEqual({
      policy: 'task-boundary',
      reason: 'prune point is a task boundary',
    });
  });

  it('pressure-0.8: DEFERs below 80% of the budget and PRUNEs above it', () => {
    const low = run('ladder-0-3~pressure-0.8', { budgetTokens: 100_000, taskBoundary: true });
    expect(low.variant.records.filter((r) => r.eligibility === 'eligible').every((r) => r.decision === 'DEFER')).toBe(
      true,
    );
    expect(low.variant.records.find((r) => r.decision === 'DEFER')!.timing.reason).toMatch(
      /not above 80\.0%: postponed/,
    );
    const high = run('ladder-0-3~pressure-0.8', { budgetTokens: 20, taskBoundary: false });
    expect(decisions(high.variant)).toEqual(decisions(high.base));
    expect(high.variant.records.some((r) => r.decision === 'PRUNE')).toBe(true);
  });

  it('decide exactly what their base decides (timing is not eligibility)', () => {
    const base = getCondition('ladder-0-3')!;
    const variant = timed(base, { kind: 'task-boundary' });
    expect(variant.version).toBe(base.version);
    expect(variant.rung).toBe(base.rung);
    expect(variant.layer).toBe(base.layer);
  });

  it('a timing declared by a --policy module must be a timing', () => {
    expect(isTiming({ kind: 'task-boundary' })).toBe(true);
    expect(isTiming({ kind: 'pressure', threshold: 0.5 })).toBe(true);
    expect(isTiming({ kind: 'pressure', threshold: 0 })).toBe(false);
    expect(isTiming({ kind: 'pressure' })).toBe(false);
    expect(isTiming({ kind: 'later' })).toBe(false);
    expect(isTiming('task-boundary')).toBe(false);
  });
});
