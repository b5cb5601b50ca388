import { describe, expect, it } from 'vitest';
import { at, condition, decideById, makeView, note, result, verdicts } from './build-view.js';

const vc = condition('verified-completion');
const trace = [result('r1', 1, 'grep output'), result('r2', 2, 'file read'), note('n3', 3, 'Decision: use pool size 20 (timeout 30s)')];
const unit = (extra: Record<string, unknown>) => ({ id: 'wu1', description: 'tune the pool', state: 'closed', traceItems: ['r1', 'r2', 'n3'], ...extra });

describe('verified-completion (rung 3)', () => {
  it("makes a closed unit's trace eligible when its consequence record is in context with every string", () => {
    const view = makeView({
      items: trace,
      visible: { workUnits: [unit({ consequence: { itemId: 'n3', strings: ['pool size 20', 'timeout 30s'] } })] },
    });
    const d = decideById(vc, view);
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'eligible', n3: 'keep' });
    expect(at(d, 'r1')).toMatchObject({ rule: 'verified-completion', rung: 3, obligationsConsulted: ['wu1'] });
    expect(at(d, 'r1').reason).toBe('trace of closed work unit wu1, whose consequence is recorded in n3, which holds every consequence string');
  });

  it('abstains when the consequence record lacks a string, is not in context, or is absent', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ consequence: { itemId: 'n3', strings: ['pool size 20', 'max 50'] } }, `wu1's consequence record n3 lacks "max 50"`],
      [{ consequence: { itemId: 'n9', strings: ['pool size 20'] } }, `wu1's consequence record n9 is not in context`],
      [{}, 'wu1 closed with no recorded consequence'],
    ];
    for (const [extra, why] of cases) {
      const view = makeView({ items: [...trace, note('n9', 9, 'pool size 20')], turn: 3, visible: { workUnits: [unit(extra)] } });
      const d = decideById(vc, view);
      expect(at(d, 'r1').verdict).toBe('abstain');
      expect(at(d, 'r1').reason).toBe(`closure not verified: ${why}`);
    }
  });

  it('keeps the trace of an open unit, and an item that is also part of open work', () => {
    const view = makeView({
      items: trace,
      visible: {
        workUnits: [
          unit({ consequence: { itemId: 'n3', strings: ['pool size 20'] } }),
          { id: 'wu2', description: 'still going', state: 'open', traceItems: ['r2'] },
        ],
      },
    });
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'keep', n3: 'keep' });
  });

  it("never removes a unit's consequence record, even when it is another unit's trace", () => {
    const view = makeView({
      items: [...trace, note('n4', 4, 'summary: n3 recorded')],
      visible: {
        workUnits: [
          unit({ consequence: { itemId: 'n3', strings: ['pool size 20'] } }),
          { id: 'wu2', description: 'write-up', state: 'closed', traceItems: ['n3'], consequence: { itemId: 'n4', strings: ['summary'] } },
        ],
      },
    });
    expect(at(decideById(vc, view), 'n3').verdict).toBe('keep');
  });

  it('gates first: a pinned trace item stays', () => {
    const view = makeView({
      items: trace,
      visible: { pinned: ['r2'], workUnits: [unit({ consequence: { itemId: 'n3', strings: ['pool size 20'] } })] },
    });
    expect(verdicts(vc, view)).toEqual({ r1: 'eligible', r2: 'keep', n3: 'keep' });
  });
});
