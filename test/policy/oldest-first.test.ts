import { describe, expect, it } from 'vitest';
import { condition, makeView, note, result, verdicts } from './build-view.js';

const oldest = condition('oldest-first');
const ten = 'x'.repeat(10);

describe('oldest-first', () => {
  it('removes from the front, any kind, and stops as soon as the context fits the budget', () => {
    const view = makeView({
      items: [
        note('u1', 1, ten, { kind: 'constraint', origin: 'user' }),
        result('r2', 2, ten),
        note('n3', 3, ten),
        result('r4', 4, ten),
      ],
      budgetTokens: 25,
      visible: { pinned: ['u1'] },
    });
    expect(view.contextTokens).toBe(40);
    expect(verdicts(oldest, view)).toEqual({ u1: 'eligible', r2: 'eligible', n3: 'keep', r4: 'keep' });
    const [first, , third] = oldest.decide(view);
    expect(first?.reason).toBe('oldest remaining item while the context (40 tokens) exceeds the budget of 25');
    expect(third?.reason).toBe('context fits the budget of 25 tokens at 20 after removing 2 older item(s)');
  });

  it('removes nothing when the context already fits, including exactly at the budget', () => {
    const view = makeView({ items: [note('n1', 1, ten), note('n2', 2, ten)], budgetTokens: 20 });
    expect(verdicts(oldest, view)).toEqual({ n1: 'keep', n2: 'keep' });
  });
});
