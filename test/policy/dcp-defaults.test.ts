// The preregistered DCP comparators' defaults, pinned to DCP's source (Opencode-DCP/opencode-dynamic-context-pruning:
// lib/config.ts @ 04767c1 defaultConfig.strategies, lib/strategies/purge-errors.ts @ 3a1f2ba, lib/messages/prune.ts
// @ 12dc48c, lib/strategies/deduplication.ts @ 4ea8591). Changing one is a departure from the preregistration.
import { describe, expect, it } from 'vitest';
import {
  DCP_DEFAULT_PROTECTED_TOOLS,
  DCP_ERROR_INPUT_PLACEHOLDER,
  DEFAULT_AFTER_TURNS,
} from '../../src/policy/comparators/dcp-purge-errors.js';
import { DCP_PLACEHOLDER, dedupKey } from '../../src/policy/comparators/same-tool-args-dedup.js';
import { callAndResult, condition, makeView, note, verdicts } from './build-view.js';

const failed = { status: { state: 'error', errorType: 'E', message: 'boom' } };

describe("DCP's defaults, as the preregistered comparators use them", () => {
  it('purge-errors: turns 4 (strategies.purgeErrors.turns), the input marker of pruneToolErrors', () => {
    expect(DEFAULT_AFTER_TURNS).toBe(4);
    expect(condition('dcp-purge-errors').parameters).toEqual({ afterTurns: 4 });
    expect(DCP_ERROR_INPUT_PLACEHOLDER).toBe('[input removed due to failed tool call]');
  });

  it('purge-errors: `currentTurn - turn >= turns`, turns counted in model steps, purges at 4 steps and not at 3', () => {
    const aged = (n: number) => [
      ...callAndResult('1', 0, 'bash', { cmd: 'make' }, failed),
      ...Array.from({ length: n }, (_, k) => note(`n${k + 1}`, k + 1, 'next step')),
    ];
    expect(verdicts(condition('dcp-purge-errors'), makeView({ items: aged(3) })).c1).toBe('keep');
    expect(verdicts(condition('dcp-purge-errors'), makeView({ items: aged(4) })).c1).toBe('eligible');
  });

  it("dedup: the output marker, and createToolSignature's normalisation (top-level nulls dropped, keys sorted)", () => {
    expect(DCP_PLACEHOLDER).toBe('[Output removed to save context - information superseded or no longer needed]');
    expect(dedupKey('read', { b: 1, a: null, c: { y: null, x: 2 } })).toBe('read::{"b":1,"c":{"x":2,"y":null}}');
    expect(condition('same-tool-args-dedup').parameters).toEqual({});
  });

  it('both strategies: protectedTools defaults to DEFAULT_PROTECTED_TOOLS (lib/config.ts @ 7b0e2e8, DCP v1.2.3)', () => {
    expect(DCP_DEFAULT_PROTECTED_TOOLS).toEqual([
      'task',
      'todowrite',
      'todoread',
      'discard',
      'extract',
      'batch',
      'write',
      'edit',
      'plan_enter',
      'plan_exit',
    ]);
  });
});
