// The prune point's subgoal comes from visible state only. It must not change when the hidden downstream
// obligations are permuted or removed, and it must be the first pending step, else the first open work unit, else
// the task goal; it must never be a downstream obligation's phrase a visible field does not also carry.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeFixture } from '../../src/corpus/compose.js';
import { subgoalFrom } from '../../src/corpus/subgoal.js';
import type { Item, PendingStep, VisibleState, WorkUnit } from '../../src/fixture/schema.js';

type Point = { subgoal: string; visible: VisibleState; downstream: { description: string }[] };

describe('subgoal from visible state', () => {
  it('prefers a pending step, then an open work unit, then the goal', () => {
    const step: PendingStep = { id: 'ps', description: 'Revisit the pin', references: ['i1'] };
    const open: WorkUnit = { id: 'wu', description: 'Fix ABC-1', state: 'open', traceItems: [] };
    const closed: WorkUnit = { ...open, id: 'wu2', description: 'Done', state: 'closed' };
    expect(subgoalFrom('Ship it', { pendingSteps: [step], workUnits: [open] })).toBe('Revisit the pin');
    expect(subgoalFrom('Ship it', { pendingSteps: [], workUnits: [closed, open] })).toBe('Fix ABC-1');
    expect(subgoalFrom('Ship it', { pendingSteps: [], workUnits: [closed] })).toBe('Ship it');
  });

  it('is unchanged when downstream obligations are permuted or removed (property over composed fixtures)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.integer({ min: 0, max: 399 }),
        fc.integer(),
        (seed, index, shuffle) => {
          const c = composeFixture(seed, index);
          const task = (c.fixture['items'] as Item[])[0]!.content;
          const goal = task.slice(0, task.indexOf('. Work through'));
          for (const p of c.fixture['prunePoints'] as Point[]) {
            expect(p.subgoal).toBe(subgoalFrom(goal, p.visible));
            const permuted = [...p.downstream].sort(() =>
              (shuffle = (shuffle * 1103515245 + 12345) | 0) & 1 ? 1 : -1,
            );
            const withFewer = { ...p, downstream: permuted.slice(1) };
            expect(subgoalFrom(goal, withFewer.visible)).toBe(p.subgoal);
            // Whatever the downstream needs say, a subgoal that is not the goal is a visible step or unit.
            if (p.subgoal !== goal)
              expect([
                ...p.visible.pendingSteps.map((s) => s.description),
                ...p.visible.workUnits.map((w) => w.description),
              ]).toContain(p.subgoal);
          }
        },
      ),
      // Each run composes a fixture (about 125 ms): 20 seeds and indexes, every prune point of each checked.
      { numRuns: 20 },
    );
  }, 300_000);
});
