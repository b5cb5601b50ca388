import { describe, expect, it } from 'vitest';
import {
  CLASS_ATTENTION_WINDOW,
  CONFIG_ATTENTION_WINDOW,
  MASKED_PLACEHOLDER,
} from '../../src/policy/comparators/openhands-observation-masking.js';
import { builtInRegistry } from '../../src/policy/registry.js';
import { at, callAndResult, condition, decideById, makeView, note, verdicts } from './build-view.js';

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

  it('counts the window in events of any kind, masks the observations outside it, and drops their calls', () => {
    // 8 events: c1 r1 c2 r2 c3 r3 c4 r4; the last 5 are r2 c3 r3 c4 r4. r1 is masked, and its call, which
    // OpenHands never sends without it (the mask carries no tool-call metadata), leaves with nothing in its place.
    const view = makeView({ items: pairs(4) });
    const d = decideById(classDefault, view);
    expect(verdicts(classDefault, view)).toEqual({
      c1: 'eligible',
      r1: 'eligible',
      c2: 'keep',
      r2: 'keep',
      c3: 'keep',
      r3: 'keep',
      c4: 'keep',
      r4: 'keep',
    });
    expect(at(d, 'r1').replacement).toBe('<MASKED>');
    expect(at(d, 'c1').replacement).toBe('');
  });

  it("counts the model's text before a call as the call's thought: one event, which leaves with the call", () => {
    // With a thought before each call, the events are still 8 (n1+c1, r1, n2+c2, r2, ...): r1 alone is outside.
    const view = makeView({
      items: [1, 2, 3, 4].flatMap((k) => [
        note(`n${k}`, k, `thinking about d${k}`),
        ...callAndResult(String(k), k, 'ls', { dir: `d${k}` }, { content: 'out' }),
      ]),
    });
    expect(verdicts(classDefault, view)).toEqual({
      n1: 'eligible',
      c1: 'eligible',
      r1: 'eligible',
      n2: 'keep',
      c2: 'keep',
      r2: 'keep',
      n3: 'keep',
      c3: 'keep',
      r3: 'keep',
      n4: 'keep',
      c4: 'keep',
      r4: 'keep',
    });
    // A text the model wrote with no call after it in its turn is an event of its own, and stays with its turn.
    const alone = makeView({ items: [note('m0', 0, 'plan'), ...pairs(4)] });
    expect(verdicts(classDefault, alone)).toMatchObject({ m0: 'keep', c1: 'eligible', r1: 'eligible', r2: 'keep' });
  });

  it('masks nothing while the context holds no more events than the window', () => {
    expect(Object.values(verdicts(published, makeView({ items: pairs(50) }))).every((v) => v === 'keep')).toBe(true);
    const over = verdicts(published, makeView({ items: pairs(51) }));
    expect(over).toMatchObject({ r1: 'eligible', c1: 'eligible', r2: 'keep', c2: 'keep' });
  });
});
