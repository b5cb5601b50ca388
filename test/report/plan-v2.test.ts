// The v2 analysis forms a preregistration may state, checked on the committed preregistration edited in memory
// (no committed results are read).
import { describe, expect, it } from 'vitest';
import { STUDY } from '../../experiments/ch10-ablation/study.js';
import { thrown } from './support.js';
import { planOf } from '../../src/report/plan.js';
import { loadPreregistration, type Preregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';

const real = loadPreregistration('.', PREREGISTRATION_FILE);
const edited = (edit: (p: Preregistration) => Preregistration) =>
  planOf(edit(structuredClone(real.preregistration)), PREREGISTRATION_FILE, 'x', STUDY);

describe('v2 analysis plan', () => {
  it('accepts v2 analysis forms (cluster-bootstrap intervals, sign-flip over fixtures) and checks outcomes against per-fixture counts', () => {
    const v2 = (outcomes: { id: string; definition: string }[]) =>
      edited((p) => ({
        ...p,
        pointOutcomes: outcomes,
        analysis: {
          ...p.analysis,
          intervals: { ...p.analysis.intervals, method: 'fixture-cluster bootstrap' },
          paired: { test: 'exact sign-flip', unit: 'fixture', sided: 'two-sided', note: 'fixtures are independent' },
          comparisons: p.analysis.comparisons.map((c) => ({ ...c, outcome: outcomes[0]!.id })),
          preregisteredTables: ['measures'],
        },
      }));
    const plan = v2([{ id: 'harmRate', definition: 'necessary units removed in the fixture' }]);
    expect(plan.preregistration.analysis.paired.unit).toBe('fixture');
    expect(plan.secondary).toBe(STUDY.secondary);
    // A per-prune-point-only notion the per-fixture pairing has no count for is refused, naming it.
    expect(thrown(() => v2([{ id: 'anyDefer', definition: 'deferred once' }])).message).toContain(
      'per-fixture count for "anyDefer"',
    );
  });
});
