import { describe, expect, it } from 'vitest';
import { TRIM_MESSAGES_DEFAULTS } from '../../src/policy/comparators/langchain-trim-messages.js';
import { condition, makeView, note, verdicts } from './build-view.js';

const trim = condition('langchain-trim-messages');
// Five notes of 10, 20, 30, 40, 50 tokens (one token per character), oldest first.
const items = [10, 20, 30, 40, 50].map((n, i) => note(`m${i + 1}`, i, 'x'.repeat(n)));

describe('langchain-trim-messages (strategy "last", maxTokens = budgetTokens)', () => {
  it('pins the package defaults it reproduces', () => {
    expect(TRIM_MESSAGES_DEFAULTS).toEqual({
      strategy: 'last',
      allowPartial: false,
      includeSystem: false,
      startOn: 'none',
      endOn: 'none',
      maxTokens: 'budgetTokens',
    });
    expect(trim.parameters).toEqual(TRIM_MESSAGES_DEFAULTS);
  });

  it('keeps the longest run of the newest messages that fits, the budget itself included', () => {
    expect(verdicts(trim, makeView({ items, budgetTokens: 120 }))).toEqual({
      m1: 'eligible',
      m2: 'eligible',
      m3: 'keep',
      m4: 'keep',
      m5: 'keep',
    });
    expect(verdicts(trim, makeView({ items, budgetTokens: 119 }))).toMatchObject({ m3: 'eligible', m4: 'keep' });
  });

  it('removes nothing when everything fits, and everything when not even the newest message fits', () => {
    expect(Object.values(verdicts(trim, makeView({ items, budgetTokens: 150 }))).every((v) => v === 'keep')).toBe(true);
    expect(Object.values(verdicts(trim, makeView({ items, budgetTokens: 49 }))).every((v) => v === 'eligible')).toBe(
      true,
    );
  });

  it('gives a leading system message no special place (includeSystem false)', () => {
    const withSystem = [
      { id: 'sys', turn: 0, kind: 'instruction', origin: 'system', content: 'x'.repeat(5) },
      ...items,
    ];
    expect(verdicts(trim, makeView({ items: withSystem, budgetTokens: 90 })).sys).toBe('eligible');
  });
});
