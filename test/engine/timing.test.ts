import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { decideTiming, parseTiming, timingLabel } from '../../src/timing/timing.js';
import { minimalFixture } from '../support/minimal.js';

const view = (budget: number, taskBoundary: boolean) => {
  const f = minimalFixture();
  Object.assign(f.prunePoints[0]!, { budgetTokens: budget, taskBoundary });
  return buildView(Fixture.parse(f), 'pp1', (t) => t.length);
};

describe('timing', () => {
  it('parses the three policies and rejects others with the valid choices', () => {
    expect(parseTiming('immediate')).toEqual({ kind: 'immediate' });
    expect(parseTiming('pressure:0.8')).toEqual({ kind: 'pressure', threshold: 0.8 });
    expect(timingLabel(parseTiming('pressure:0.8'))).toBe('pressure:0.8');
    expect(parseTiming('task-boundary')).toEqual({ kind: 'task-boundary' });
    for (const bad of ['pressure:0', 'pressure:1.5', 'pressure:', 'soon']) {
      expect(() => parseTiming(bad)).toThrow(UsageError);
    }
    expect(() => parseTiming('soon')).toThrow(/immediate, pressure:<share of budget in \(0,1\]>, task-boundary/);
  });

  it('applies under pressure only above the share of the budget', () => {
    const v = view(100, false);
    expect(v.contextTokens).toBeGreaterThan(80);
    expect(decideTiming({ kind: 'pressure', threshold: 0.8 }, v).applyNow).toBe(true);
    expect(decideTiming({ kind: 'pressure', threshold: 0.8 }, view(10_000, false)).applyNow).toBe(false);
  });

  it('applies at task boundaries only', () => {
    expect(decideTiming({ kind: 'task-boundary' }, view(100, true)).applyNow).toBe(true);
    expect(decideTiming({ kind: 'task-boundary' }, view(100, false)).applyNow).toBe(false);
    expect(decideTiming({ kind: 'immediate' }, view(100, false)).applyNow).toBe(true);
  });
});
