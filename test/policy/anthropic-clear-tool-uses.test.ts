import { describe, expect, it } from 'vitest';
import {
  CLEAR_TOOL_USES_DEFAULTS,
  CLEARED_PLACEHOLDER,
  clearToolUses,
} from '../../src/policy/comparators/anthropic-clear-tool-uses.js';
import { scaledTokens } from '../../src/policy/comparators/scale.js';
import { at, callAndResult, condition, decideById, makeView, note, verdicts } from './build-view.js';

const published = condition('anthropic-clear-tool-uses');
const scaled = condition('anthropic-clear-tool-uses-scaled');

/** Five read calls with results of `size` characters (one token each in these views), oldest first. */
const reads = (size: number, tool = 'read_file') =>
  [1, 2, 3, 4, 5].flatMap((n) => callAndResult(String(n), n, tool, { path: `f${n}` }, { content: 'x'.repeat(size) }));

describe('anthropic-clear-tool-uses (clear_tool_uses_20250919 at its published defaults)', () => {
  it('pins the cited defaults and the placeholder', () => {
    expect(CLEAR_TOOL_USES_DEFAULTS).toEqual({
      triggerTokens: 100_000,
      keep: 3,
      clearAtLeast: 0,
      excludeTools: [],
      clearToolInputs: false,
    });
    expect(CLEARED_PLACEHOLDER).toBe('[cleared]');
    expect(published.parameters).toEqual({
      triggerTokens: 100_000,
      clearAtLeast: 0,
      keep: 3,
      excludeTools: '',
      clearToolInputs: false,
    });
  });

  it('clears nothing while the prompt does not exceed 100,000 tokens, however many tool uses there are', () => {
    const view = makeView({ items: reads(19_000) });
    expect(view.contextTokens).toBeLessThanOrEqual(100_000);
    expect(Object.values(verdicts(published, view)).every((v) => v === 'keep')).toBe(true);
  });

  it('above the trigger clears every tool result but the 3 newest, oldest first, and keeps every call', () => {
    const view = makeView({ items: [note('plan', 0, 'p'), ...reads(21_000)] });
    expect(view.contextTokens).toBeGreaterThan(100_000);
    const d = decideById(published, view);
    expect(verdicts(published, view)).toMatchObject({
      r1: 'eligible',
      r2: 'eligible',
      r3: 'keep',
      r4: 'keep',
      r5: 'keep',
    });
    for (const n of [1, 2, 3, 4, 5]) expect(at(d, `c${n}`).verdict).toBe('keep');
    expect(at(d, 'plan').verdict).toBe('keep');
    expect(at(d, 'r1').replacement).toBe('[cleared]');
  });

  it('keeps an excluded tool and clears nothing when clear_at_least cannot be met', () => {
    const c = clearToolUses({ excludeTools: ['read_file'] });
    const view = makeView({ items: reads(21_000) });
    expect(Object.values(verdicts(c, view)).every((v) => v === 'keep')).toBe(true);
  });
});

describe('anthropic-clear-tool-uses-scaled (the trigger as half of budgetTokens)', () => {
  it('records the share, not the tokens', () => {
    expect(scaled.parameters).toMatchObject({ triggerShare: 0.5, assumedWindow: 200_000, keep: 3 });
    expect(scaledTokens(100_000, 1000)).toBe(500);
  });

  it('triggers just above half the budget and not at it', () => {
    const items = [1, 2, 3, 4].flatMap((n) => callAndResult(String(n), n, 'grep', { q: `q${n}` }, { content: 'y' }));
    const base = makeView({ items });
    const fits = makeView({ items, budgetTokens: 2 * base.contextTokens });
    expect(Object.values(verdicts(scaled, fits)).every((v) => v === 'keep')).toBe(true);
    const over = makeView({ items, budgetTokens: 2 * base.contextTokens - 2 });
    expect(verdicts(scaled, over)).toMatchObject({ r1: 'eligible', r2: 'keep', r3: 'keep', r4: 'keep' });
    // The published trigger never fires on a context this small.
    expect(Object.values(verdicts(published, over)).every((v) => v === 'keep')).toBe(true);
  });
});
