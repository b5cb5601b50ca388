// Which parts of a run on the frozen inputs depart from the preregistered design (the whole run is then exploratory)
// and which conditions merely run beside it, stamped exploratory one by one.
import { describe, expect, it } from 'vitest';
import { allConditions, getCondition } from '../../src/policy/registry.js';
import { departures, type RunShape, unnamedConditions } from '../../src/study/check.js';
import { loadPreregistration } from '../../src/study/preregistration.js';
import { PREREGISTRATION_FILE } from '../support/study.js';

const { preregistration: p } = loadPreregistration(process.cwd(), PREREGISTRATION_FILE);
const shape = (over: Partial<RunShape> = {}): RunShape => ({
  timing: p.run.timing,
  placeholders: p.run.placeholders,
  seed: p.run.seed,
  conditions: allConditions(),
  own: [],
  ...over,
});

describe('departures and unnamed conditions', () => {
  it('the default run departs from nothing; the new comparators run beside it, each stamped alone', () => {
    expect(departures(p, shape())).toEqual([]);
    const unnamed = unnamedConditions(p, shape());
    expect(unnamed).toEqual(
      expect.arrayContaining(['anthropic-clear-tool-uses', 'opencode-prune', 'langchain-trim-messages']),
    );
    for (const name of unnamed) expect(p.conditions.some((c) => c.name === name)).toBe(false);
    expect(unnamed).not.toContain('ladder-0-3');
  });

  it('a preregistered condition whose parameters, version, layer or rung differ is still a departure', () => {
    const masking = getCondition('observation-masking')!;
    for (const changed of [
      { ...masking, parameters: { ...masking.parameters, keepLast: 3 } },
      { ...masking, version: '9.9.9' },
      { ...masking, rung: 2 as const },
    ]) {
      const out = departures(p, shape({ conditions: [changed] }));
      expect(out).toEqual([
        'condition observation-masking differs from its preregistered version, layer, rung or parameters',
      ]);
      expect(unnamedConditions(p, shape({ conditions: [changed] }))).toEqual([]);
    }
  });

  it('run options still make the whole run exploratory; a --policy condition is stamped alone', () => {
    expect(departures(p, shape({ seed: 7 }))).toEqual([`seed 7 (preregistered: ${p.run.seed})`]);
    const mine = { ...getCondition('raw')!, name: 'my-pruner', decide: () => [] };
    const run = shape({ conditions: [getCondition('raw')!, mine], own: ['my-pruner'] });
    expect(departures(p, run)).toEqual([]);
    expect(unnamedConditions(p, run)).toEqual(['my-pruner']);
  });
});
