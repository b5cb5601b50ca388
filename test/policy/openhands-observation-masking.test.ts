import { describe, expect, it } from 'vitest';
import {
  CLASS_ATTENTION_WINDOW,
  CONFIG_ATTENTION_WINDOW,
  MASKED_PLACEHOLDER,
} from '../../src/policy/comparators/openhands-observation-masking.js';
import { builtInRegistry } from '../../src/policy/registry.js';
import { at, callAndResult, condition, decideById, makeView, verdicts } from './build-view.js';

const published = condition('openhands-observation-masking');
const classDefault = condition('openhands-observation-masking@5');

/** n call/result pairs: 2n events, alternating action and observation. */
const pairs = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    callAndResult(String(i + 1), i + 1, 'ls', { dir: `d${i + 1}` }, { content: 'out' }),
  ).flat();

describe('openhands-observation-masking', () => {
  it('pins the cited defaults: config 100 as the default, the class 5 as its sweep variant, "<MASKED>"', () => {
    expect(CONFIG_ATTENTION_WINDOW).toBe(100);
    expect(CLASS_ATTENTION_WINDOW).toBe(5);
    expect(MASKED_PLACEHOLDER).toBe('<MASKED>');
    expect(published.parameters).toEqual({ attentionWindow: 100 });
    expect(classDefault.parameters).toEqual({ attentionWindow: 5 });
    expect(builtInRegistry().find('openhands-observation-masking@5')?.condition.sweepOf).toEqual({
      condition: 'openhands-observation-masking',
      parameter: 'attentionWindow',
      value: 5,
    });
  });

  it('counts the window in events of any kind, masking only observations outside it', () => {
    // 8 events: c1 r1 c2 r2 c3 r3 c4 r4; the last 5 are r2 c3 r3 c4 r4.
    const view = makeView({ items: pairs(4) });
    const d = decideById(classDefault, view);
    expect(verdicts(classDefault, view)).toEqual({
      c1: 'keep',
      r1: 'eligible',
      c2: 'keep',
      r2: 'keep',
      c3: 'keep',
      r3: 'keep',
      c4: 'keep',
      r4: 'keep',
    });
    expect(at(d, 'r1').replacement).toBe('<MASKED>');
  });

  it('masks nothing while the context holds no more events than the window', () => {
    expect(Object.values(verdicts(published, makeView({ items: pairs(50) }))).every((v) => v === 'keep')).toBe(true);
    const over = verdicts(published, makeView({ items: pairs(51) }));
    expect(over).toMatchObject({ r1: 'eligible', c1: 'keep', r2: 'keep' });
  });
});
