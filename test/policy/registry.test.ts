import { describe, expect, it } from 'vitest';
import { allConditions, conditionNames, getCondition } from '../../src/policy/registry.js';

const ORDER = [
  'raw',
  'prune-all',
  'id-only',
  'position-only',
  'exact-redundancy',
  'source-identity',
  'errored-input-residue',
  'checked-supersession',
  'verified-completion',
  'predictive-semantic',
  'same-tool-args-dedup',
  'dcp-purge-errors',
  'observation-masking',
  'oldest-first',
  'regenerability-guard',
  'anthropic-clear-tool-uses',
  'anthropic-clear-tool-uses-scaled',
  'opencode-prune',
  'opencode-prune-scaled',
  'openhands-observation-masking',
  'claude-code-microcompact',
  'langchain-trim-messages',
  'pkg-ai-prune-messages',
  'pkg-langchain-trim-messages',
  'ladder-0',
  'ladder-0-1',
  'ladder-0-2',
  'ladder-0-3',
  'ladder-0-4',
  'ladder-0-3~task-boundary',
  'ladder-0-3~pressure-0.8',
  'ladder-0-3~cache-safe',
  'predictive-semantic@0.05',
  'predictive-semantic@0.1',
  'predictive-semantic@0.3',
  'predictive-semantic@0.4',
  'predictive-semantic@0.5',
  'observation-masking@1',
  'observation-masking@2',
  'observation-masking@5',
  'observation-masking@20',
  'observation-masking@40',
  'openhands-observation-masking@5',
];

describe('condition registry', () => {
  it('lists every condition once, in the stable order', () => {
    expect(conditionNames()).toEqual(ORDER);
    expect(allConditions().map((c) => c.name)).toEqual(ORDER);
  });

  it('returns undefined for an unknown name and a fresh list each time', () => {
    expect(getCondition('ladder-9')).toBeUndefined();
    expect(getCondition('raw')?.layer).toBe('control');
    const list = allConditions();
    list.pop();
    expect(allConditions()).toHaveLength(ORDER.length);
  });

  it('describes each condition with its layer, rung, flags, parameters and reference or order', () => {
    const table = Object.fromEntries(
      allConditions().map((c) => [c.name, [c.layer, c.rung, c.consultsObligations, c.upperRisk]]),
    );
    expect(table).toEqual({
      raw: ['control', null, false, false],
      'prune-all': ['control', null, false, true],
      'id-only': ['control', null, false, true],
      'position-only': ['control', null, false, true],
      'exact-redundancy': ['A', 0, true, false],
      'source-identity': ['A', 1, true, false],
      'errored-input-residue': ['A', 2, true, false],
      'checked-supersession': ['A', 2, true, false],
      'verified-completion': ['A', 3, true, false],
      'predictive-semantic': ['A', 4, false, true],
      'same-tool-args-dedup': ['comparator', null, false, false],
      'dcp-purge-errors': ['comparator', null, false, false],
      'observation-masking': ['comparator', null, false, false],
      'oldest-first': ['comparator', null, false, false],
      'regenerability-guard': ['comparator', 4, true, false],
      'anthropic-clear-tool-uses': ['comparator', null, false, false],
      'anthropic-clear-tool-uses-scaled': ['comparator', null, false, false],
      'opencode-prune': ['comparator', null, false, false],
      'opencode-prune-scaled': ['comparator', null, false, false],
      'openhands-observation-masking': ['comparator', null, false, false],
      'claude-code-microcompact': ['comparator', null, false, false],
      'langchain-trim-messages': ['comparator', null, false, false],
      'pkg-ai-prune-messages': ['comparator', null, false, false],
      'pkg-langchain-trim-messages': ['comparator', null, false, false],
      'ladder-0': ['B', 0, true, false],
      'ladder-0-1': ['B', 1, true, false],
      'ladder-0-2': ['B', 2, true, false],
      'ladder-0-3': ['B', 3, true, false],
      'ladder-0-4': ['B', 4, true, true],
      'ladder-0-3~task-boundary': ['B', 3, true, false],
      'ladder-0-3~pressure-0.8': ['B', 3, true, false],
      'ladder-0-3~cache-safe': ['B', 3, true, false],
      ...Object.fromEntries([0.05, 0.1, 0.3, 0.4, 0.5].map((t) => [`predictive-semantic@${t}`, ['A', 4, false, true]])),
      ...Object.fromEntries(
        [1, 2, 5, 20, 40].map((m) => [`observation-masking@${m}`, ['comparator', null, false, false]]),
      ),
      'openhands-observation-masking@5': ['comparator', null, false, false],
    });
    for (const c of allConditions()) {
      expect(c.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(c.description.length).toBeGreaterThan(10);
      expect(c.description).not.toContain('\n');
      if (c.layer === 'comparator') expect(c.reference).toBeTruthy();
      if (c.layer === 'B') expect(c.order?.[0]).toBe('exact-redundancy');
    }
    // Age is DCP's rule, not rung 2's: the conservative mechanism has no threshold, the comparator keeps DCP's default.
    expect(getCondition('errored-input-residue')?.parameters).toEqual({});
    expect(getCondition('dcp-purge-errors')?.parameters).toEqual({ afterTurns: 4 });
    expect(getCondition('dcp-purge-errors')?.reference).toContain(
      'Tarquinen/opencode-dynamic-context-pruning @ 7b0e2e8',
    );
    expect(getCondition('predictive-semantic@0.4')?.parameters).toMatchObject({ threshold: 0.4 });
    expect(getCondition('predictive-semantic@0.4')?.sweepOf).toEqual({
      condition: 'predictive-semantic',
      parameter: 'threshold',
      value: 0.4,
    });
    expect(getCondition('observation-masking@2')?.parameters).toMatchObject({ keepLast: 2 });
    expect(getCondition('observation-masking@2')?.sweepOf).toEqual({
      condition: 'observation-masking',
      parameter: 'keepLast',
      value: 2,
    });
    expect(getCondition('observation-masking')?.sweepOf).toBeUndefined();
    expect(getCondition('ladder-0-3')?.order).toEqual([
      'exact-redundancy',
      'source-identity',
      'errored-input-residue',
      'checked-supersession',
      'verified-completion',
      'predictive-semantic',
    ]);
    expect(getCondition('ladder-0-3')?.parameters).toMatchObject({ threshold: 0.2, predictorMode: 'abstain' });
    expect(getCondition('ladder-0-3')?.parameters).not.toHaveProperty('afterTurns');
    expect(getCondition('ladder-0-4')?.parameters).toMatchObject({ predictorMode: 'apply' });
    expect(getCondition('ladder-0-3~pressure-0.8')?.parameters).toMatchObject({
      threshold: 0.2,
      predictorMode: 'abstain',
      timing: 'pressure:0.8',
    });
    expect(getCondition('ladder-0-3~pressure-0.8')?.timing).toEqual({ kind: 'pressure', threshold: 0.8 });
    expect(getCondition('ladder-0-3')?.timing).toBeUndefined();
    expect(getCondition('same-tool-args-dedup')?.reference).toContain('Tarquinen');
    expect(getCondition('observation-masking')?.reference).toContain('Complexity Trap');
    expect(getCondition('regenerability-guard')?.reference).toContain('safe_prune');
  });
});
