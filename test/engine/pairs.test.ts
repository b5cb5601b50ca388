// Rule 8 of issue 10: a removal never splits a tool call from its result. With placeholders none a removal takes
// both halves or neither; with markers, the marker keeps the removed half's turn, so the pair keeps its shape.
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { prunedContext } from '../../src/behaviour/measure.js';
import { runStudy } from '../../src/engine/run.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import type { PlaceholderMode } from '../../src/engine/placeholder.js';
import { getCondition } from '../../src/policy/registry.js';
import type { Timing } from '../../src/timing/timing.js';
import { callAndResult, fixtureObject, note } from '../policy/build-view.js';

const items = [
  ...callAndResult('1', 1, 'ls', { dir: 'src' }, { content: 'a.ts b.ts' }),
  ...callAndResult('2', 2, 'ls', { dir: 'src' }, { content: 'a.ts b.ts' }),
  ...callAndResult('3', 3, 'ls', { dir: 'docs' }, { content: 'README.md' }),
  { ...callAndResult('4', 4, 'ls', { dir: 'test' })[0]! },
  note('n5', 4, 'the test listing is still running'),
  { ...callAndResult('4', 6, 'ls', { dir: 'test' }, { content: 'pairs.test.ts' })[1]! },
];
const fixture = Fixture.parse(
  fixtureObject({
    items,
    tools: [{ name: 'ls', sideEffect: 'pure' }],
    turn: 4,
    visible: {
      workUnits: [
        {
          id: 'wu',
          description: 'listing',
          state: 'closed',
          traceItems: ['c3', 'r3', 'c4'],
          consequence: { itemId: 'n5', strings: ['test listing'] },
        },
      ],
    },
  }),
);
const tokens = tokenCounter();
const loaded = { file: 'pairs.json', sha256: '0', fixture, oracleFile: null, oracleSha256: null, oracle: null };

function run(condition: string, placeholders: PlaceholderMode, timing: Timing = { kind: 'immediate' }) {
  const [result] = runStudy({
    conditions: [getCondition(condition)!],
    fixtures: [loaded],
    timing,
    placeholders,
    tokens,
  });
  return { records: new Map(result!.records.map((r) => [r.itemId, r])), points: result!.points };
}

describe('call/result pairs', () => {
  it('placeholders none: a result whose call stays is kept, with the reason, and is not counted as removed', () => {
    const { records, points } = run('exact-redundancy', 'none');
    expect(records.get('r1')).toMatchObject({
      eligibility: 'eligible',
      decision: 'KEEP',
      removal: null,
      placeholder: null,
    });
    expect(records.get('r1')!.reason).toContain(
      'kept: c1, the tool-call of call call-1, stays, and removing r1 alone would split the pair (placeholders none)',
    );
    expect(points[0]!.decisions.prune).toBe(0);
    expect(points[0]!.tokens.removed).toBe(0);
  });

  it('placeholders none: both halves go when the condition removes both; a call whose result has not arrived stays', () => {
    const { records, points } = run('verified-completion', 'none');
    expect(records.get('c3')).toMatchObject({ decision: 'PRUNE', placeholder: '' });
    expect(records.get('r3')).toMatchObject({ decision: 'PRUNE', placeholder: '' });
    expect(records.get('c4')).toMatchObject({ eligibility: 'eligible', decision: 'KEEP' });
    expect(records.get('c4')!.reason).toContain('its result (call call-4) has not arrived');
    expect(points[0]!.decisions.prune).toBe(2);
  });

  it('placeholders none: a removal put off (DEFER) that would split a pair is kept too; one taking both halves is put off', () => {
    // The prune point is no task boundary, so task-boundary timing defers every eligible removal.
    const later: Timing = { kind: 'task-boundary' };
    const split = run('exact-redundancy', 'none', later).records;
    expect(split.get('r1')).toMatchObject({ eligibility: 'eligible', decision: 'KEEP' });
    expect(split.get('r1')!.reason).toContain('removing r1 alone would split the pair (placeholders none)');
    const both = run('verified-completion', 'none', later).records;
    expect(both.get('c3')!.decision).toBe('DEFER');
    expect(both.get('r3')!.decision).toBe('DEFER');
    expect(both.get('c4')).toMatchObject({ eligibility: 'eligible', decision: 'KEEP' });
    // With markers nothing vanishes, so nothing is split: the same removal is simply put off.
    expect(run('exact-redundancy', 'marker', later).records.get('r1')!.decision).toBe('DEFER');
  });

  it("markers keep the pair's shape: the removed half leaves an entry of its own kind in its place", () => {
    const { records } = run('exact-redundancy', 'marker');
    expect(records.get('r1')).toMatchObject({ decision: 'PRUNE', removal: 'whole' });
    const view = buildView(fixture, 'pp', tokens);
    const context = prunedContext(view, [
      { itemId: 'r1', residue: undefined, leftBehind: records.get('r1')!.placeholder!, leftBehindTokens: 1 },
    ]);
    const kinds = context.map((e) => `${e.id}:${e.kind}`);
    expect(kinds.slice(0, 2)).toEqual(['c1:tool-call', 'r1:tool-result']);
    expect(context[1]!.text).toMatch(/^\[pruned r1 tool-result ls @/);
  });
});
