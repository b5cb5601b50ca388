import { describe, expect, it } from 'vitest';
import { OPENCODE_DEFAULTS, OPENCODE_PLACEHOLDER } from '../../src/policy/comparators/opencode-prune.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView, result, verdicts } from './build-view.js';

const published = condition('opencode-prune');
const scaled = condition('opencode-prune-scaled');

const user = (id: string, turn: number): ItemSpec => ({ id, turn, kind: 'instruction', origin: 'user', content: 'go' });
/** A completed read of `size` tokens (one token per character in these views). */
const read = (n: number, size: number, tool = 'read_file', extra = {}) =>
  callAndResult(String(n), n, tool, { path: `f${n}` }, { content: 'x'.repeat(size), ...extra });

describe('opencode-prune at its published defaults', () => {
  it('pins the cited defaults and the placeholder', () => {
    expect(OPENCODE_DEFAULTS).toEqual({
      protectTokens: 40_000,
      minimumTokens: 20_000,
      skipUserTurns: 2,
      protectedTools: ['skill'],
    });
    expect(OPENCODE_PLACEHOLDER).toBe('[Old tool result content cleared]');
    expect(published.parameters).toEqual({
      protectTokens: 40_000,
      minimumTokens: 20_000,
      skipUserTurns: 2,
      protectedTools: 'skill',
    });
  });

  it('clears outputs older than the newest 40,000 tokens of output when more than 20,000 go', () => {
    // Outside the last two user turns: 15k, 15k, 25k, 30k (oldest first). Newest first: 30k fits the 40k, 25k makes
    // 55k, so it and everything older is marked: 55k tokens > 20k.
    const view = makeView({
      items: [
        user('u0', 0),
        ...read(1, 15_000),
        ...read(2, 15_000),
        ...read(3, 25_000),
        ...read(4, 30_000),
        user('u1', 5),
        ...read(6, 50_000),
        user('u2', 7),
        ...read(8, 50_000),
      ],
    });
    const d = decideById(published, view);
    expect(verdicts(published, view)).toMatchObject({
      r1: 'eligible',
      r2: 'eligible',
      r3: 'eligible',
      r4: 'keep',
      r6: 'keep',
      r8: 'keep',
    });
    expect(at(d, 'r1').replacement).toBe('[Old tool result content cleared]');
    expect(at(d, 'c1').verdict).toBe('keep');
    expect(at(d, 'r6').reason).toMatch(/last 2 user turns/);
  });

  it('clears nothing when the marked outputs hold 20,000 tokens or fewer', () => {
    const view = makeView({
      items: [user('u0', 0), ...read(1, 20_000), ...read(2, 40_000), user('u1', 3), user('u2', 4)],
    });
    expect(Object.values(verdicts(published, view)).every((v) => v === 'keep')).toBe(true);
    const over = makeView({
      items: [user('u0', 0), ...read(1, 20_001), ...read(2, 40_000), user('u1', 3), user('u2', 4)],
    });
    expect(verdicts(published, over)).toMatchObject({ r1: 'eligible', r2: 'keep' });
  });

  it('never counts or clears skill outputs or errored outputs', () => {
    const error = { status: { state: 'error', errorType: 'E', message: 'failed' } };
    const view = makeView({
      items: [
        user('u0', 0),
        ...read(1, 30_000, 'skill'),
        ...read(2, 30_000, 'read_file', error),
        ...read(3, 30_000),
        ...read(4, 40_000),
        user('u1', 5),
        user('u2', 6),
      ],
    });
    expect(verdicts(published, view)).toMatchObject({ r1: 'keep', r2: 'keep', r3: 'eligible', r4: 'keep' });
  });

  it('touches nothing with fewer than two user messages', () => {
    const view = makeView({ items: [user('u0', 0), ...read(1, 90_000), ...read(2, 90_000)] });
    expect(Object.values(verdicts(published, view)).every((v) => v === 'keep')).toBe(true);
  });
});

describe('opencode-prune-scaled (0.2 and 0.1 of budgetTokens)', () => {
  it('records the shares and applies them to the budget', () => {
    expect(scaled.parameters).toMatchObject({ protectShare: 0.2, minimumShare: 0.1, assumedWindow: 200_000 });
    // budget 1000: protect 200, minimum 100.
    const items = [user('u0', 0), ...read(1, 101), ...read(2, 200), user('u1', 3), user('u2', 4)];
    expect(verdicts(scaled, makeView({ items, budgetTokens: 1000 }))).toMatchObject({ r1: 'eligible', r2: 'keep' });
    const under = [user('u0', 0), ...read(1, 100), ...read(2, 200), user('u1', 3), user('u2', 4)];
    expect(verdicts(scaled, makeView({ items: under, budgetTokens: 1000 }))).toMatchObject({ r1: 'keep', r2: 'keep' });
    expect(verdicts(published, makeView({ items, budgetTokens: 1000 }))).toMatchObject({ r1: 'keep' });
  });
});

describe('opencode-prune counts user messages, not user items', () => {
  it('one prompt written as two items in one turn is one user message: the outputs before it stay recent', () => {
    const big = (id: string, turn: number) => result(id, turn, 'x'.repeat(30_000));
    const view = (split: boolean) =>
      makeView({
        items: [
          { id: 'u0', turn: 0, origin: 'user', kind: 'instruction', content: 'start' },
          big('r1', 1),
          big('r2', 2),
          big('r3', 3),
          { id: 'u4a', turn: 4, origin: 'user', kind: 'instruction', content: 'now this' },
          ...(split
            ? [{ id: 'u4b', turn: 4, origin: 'user', kind: 'instruction', content: 'and the attached file' }]
            : [{ id: 'u4b', turn: 5, origin: 'user', kind: 'instruction', content: 'and then this' }]),
          big('r5', 6),
        ],
      });
    // Split: the last two user messages are u0 and u4, so nothing is old enough; two turns: r1 and r2 go.
    expect(Object.values(verdicts(condition('opencode-prune'), view(true))).every((v) => v === 'keep')).toBe(true);
    expect(verdicts(condition('opencode-prune'), view(false))).toMatchObject({ r1: 'eligible', r2: 'eligible' });
  });
});
