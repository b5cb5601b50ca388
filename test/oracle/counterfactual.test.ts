// The counterfactual rule fixtures:verify holds oracles to, from both sides: what it refuses (a necessary item whose
// removal alone loses nothing, a removable item whose removal loses an obligation, a group nothing needs) and what
// it accepts (sole holders necessary, copies grouped, protections declared), with a property over random fixtures.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../../src/fixture/schema.js';
import { counterfactualProblems, problemText } from '../../src/oracle/counterfactual.js';
import { fixture, item, obligation, oracle, result } from './build.js';

const summary = (f: Fixture, point: Record<string, unknown>) =>
  counterfactualProblems(f, oracle(point)).map(
    (p) => `${p.kind} ${'itemId' in p ? p.itemId : p.items.join('+')} ${p.field}`,
  );

describe('the counterfactual rule', () => {
  const copies = fixture(
    [
      item('task', 1, 'ship it'),
      item('a', 2, 'branch feat/x'),
      item('b', 3, 'branch feat/x'),
      item('noise', 4, 'thinking'),
    ],
    [obligation('branch', { strings: ['branch feat/x'] })],
  );

  it('refuses a copy labelled necessary while its twin is removable, and accepts the pair as a group', () => {
    expect(
      summary(copies, { removable: ['a', 'noise'], keptBecause: [{ itemId: 'task', reason: 'the task' }] }),
    ).toEqual(['not-necessary b removable']);
    expect(
      summary(copies, {
        removable: ['noise'],
        redundantGroups: [{ items: ['a', 'b'] }],
        keptBecause: [{ itemId: 'task', reason: 'the task' }],
      }),
    ).toEqual([]);
  });

  it('refuses an item labelled removable whose removal alone loses an obligation', () => {
    const sole = fixture(
      [item('a', 1, 'branch feat/x'), item('n', 2, 'noise')],
      [obligation('branch', { strings: ['branch feat/x'] })],
    );
    expect(summary(sole, { removable: ['a', 'n'] })).toEqual(['label-loses a removable[0]']);
    expect(summary(sole, { removable: ['n'] })).toEqual([]);
  });

  it('refuses a redundant group whose every copy could go, and a copy that is the sole holder of another need', () => {
    expect(summary(copies, { redundantGroups: [{ items: ['a', 'b'] }, { items: ['task', 'noise'] }] })).toEqual([
      'group-unneeded task+noise redundantGroups[1]',
    ]);
    expect(
      summary(copies, {
        removable: ['noise'],
        redundantGroups: [{ items: ['a', 'b'] }],
        keptBecause: [{ itemId: 'task', reason: 'the task' }],
      }),
    ).toEqual([]);
    const both = fixture(
      [item('a', 1, 'X and Y'), item('b', 2, 'X')],
      [obligation('x', { strings: ['X'] }), obligation('y', { strings: ['Y'] })],
    );
    expect(summary(both, { redundantGroups: [{ items: ['a', 'b'] }] })).toEqual([
      'label-loses a redundantGroups[0].items[0]',
    ]);
    expect(summary(both, { removable: ['b'] })).toEqual([]);
  });

  it('refuses a partial item whose kept residue does not carry what the obligation needs, and accepts one that does', () => {
    const failed = fixture(
      [
        result('apply', 1, 'ERROR: duplicate key INV-7', {
          state: 'error',
          errorType: 'UniqueViolation',
          message: 'duplicate key INV-7',
          fields: {},
        }),
      ],
      [obligation('key', { strings: ['INV-7'] })],
    );
    expect(summary(failed, { partial: [{ itemId: 'apply', residue: ['tool', 'errorType'] }] })).toEqual([
      'label-loses apply partial[0]',
    ]);
    expect(summary(failed, { partial: [{ itemId: 'apply', residue: ['tool', 'errorType', 'message'] }] })).toEqual([]);
  });

  it('accepts a necessary item nothing needs only when something declared keeps it', () => {
    const f = (visible: Record<string, unknown>) =>
      fixture([item('t', 1, 'the task'), item('k', 2, 'sk_live_1')], [obligation('o', { itemIds: ['t'] })], visible);
    expect(summary(f({}), {})).toEqual(['not-necessary k removable']);
    expect(summary(f({ pinned: ['k'] }), {})).toEqual([]);
    expect(summary(f({ pendingSteps: [{ id: 's', description: 'use the key', references: ['k'] }] }), {})).toEqual([]);
    expect(
      summary(f({ workUnits: [{ id: 'w', description: 'rotate', state: 'open', traceItems: ['k'] }] }), {}),
    ).toEqual([]);
    // A closed unit's trace is completed work: it protects nothing.
    expect(
      summary(f({ workUnits: [{ id: 'w', description: 'rotate', state: 'closed', traceItems: ['k'] }] }), {}),
    ).toEqual(['not-necessary k removable']);
    expect(summary(f({}), { keptBecause: [{ itemId: 'k', reason: 'the next call authenticates with it' }] })).toEqual(
      [],
    );
  });

  it('counts a pointer the obligation allows as recovery: the item is then not necessary', () => {
    const bytes = 'rate card refreshes every 15 minutes';
    const good = `sha256:${createHash('sha256').update(bytes, 'utf8').digest('hex')}`;
    const world = { store: [{ key: 'notes/why', content: bytes }] };
    const withPointer = (pointerSatisfies: boolean, contentHash = good) =>
      fixture(
        [item('why', 1, bytes, { flags: { durablePointer: { storeKey: 'notes/why', contentHash } } })],
        [obligation('why', { strings: ['every 15 minutes'] }, { pointerSatisfies })],
        {},
        world,
      );
    expect(summary(withPointer(true), {})).toEqual(['not-necessary why removable']);
    expect(summary(withPointer(true), { removable: ['why'] })).toEqual([]);
    // Not allowed by the obligation, or a pointer that does not resolve to its hash: the item stays necessary.
    expect(summary(withPointer(false), {})).toEqual([]);
    expect(summary(withPointer(true, `sha256:${'e'.repeat(64)}`), {})).toEqual([]);
    expect(summary(withPointer(false), { removable: ['why'] })).toEqual(['label-loses why removable[0]']);
  });

  it('names the file, prune point, item and field in its message', () => {
    const [p] = counterfactualProblems(
      copies,
      oracle({ removable: ['a', 'noise'], keptBecause: [{ itemId: 'task', reason: 'the task' }] }),
    );
    const text = problemText('fixtures/canonical/oracles/f.oracle.json', p!);
    expect(text).toContain(
      'fixtures/canonical/oracles/f.oracle.json: oracle point "p" (points[0]), item "b", field "removable": labelled necessary',
    );
  });
});

/** Random small fixtures: items holding subsets of a few facts, obligations needing some of the facts. */
const world = fc.record({
  holdings: fc.array(fc.subarray([0, 1, 2, 3]), { minLength: 2, maxLength: 7 }),
  needed: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
});

const factText = (k: number) => `FACT-${k}`;

function build(holdings: number[][], needed: number[], duplicate: boolean): Fixture {
  // With `duplicate`, the first two items hold only fact 0, which is needed: each is a copy of the other.
  const held = duplicate ? [[0], [0], ...holdings] : holdings;
  const needs = duplicate ? [...new Set([0, ...needed])] : needed;
  return fixture(
    held.map((h, i) => item(`i${i}`, i + 1, `item ${i}: ${h.map(factText).join(' ')}`)),
    needs.map((k) => obligation(`need-${k}`, { strings: [factText(k)] })),
  );
}

/** The oracle the rule asks for, from ground truth: sole holders necessary, copies grouped, the rest removable. */
function oracleByRule(f: Fixture): Record<string, unknown> {
  const needed = f.prunePoints[0]!.downstream.map((o) => o.needs.strings[0]!);
  const holders = (s: string) => f.items.filter((i) => i.content.includes(s)).map((i) => i.id);
  const necessary = new Set(needed.flatMap((s) => (holders(s).length === 1 ? holders(s) : [])));
  const groups = needed
    .filter((s) => holders(s).length > 1 && !holders(s).some((h) => necessary.has(h)))
    .map((s) => ({ items: holders(s) }));
  const grouped = new Set(groups.flatMap((g) => g.items));
  const removable = f.items.map((i) => i.id).filter((id) => !necessary.has(id) && !grouped.has(id));
  return { removable, redundantGroups: groups };
}

describe('the counterfactual rule over random fixtures', () => {
  it('accepts every oracle built by the rule', () => {
    fc.assert(
      fc.property(world, fc.boolean(), ({ holdings, needed }, duplicate) => {
        const f = build(holdings, needed, duplicate);
        expect(counterfactualProblems(f, oracle(oracleByRule(f)))).toEqual([]);
      }),
    );
  });

  it('refuses the oracle once a redundant copy is labelled necessary', () => {
    fc.assert(
      fc.property(world, ({ holdings, needed }) => {
        const f = build(holdings, needed, true);
        const byRule = oracleByRule(f) as { removable: string[]; redundantGroups: { items: string[] }[] };
        // i1 holds only fact 0, which i0 also holds: label it necessary (in no list).
        const groups = byRule.redundantGroups.map((g) => ({ items: g.items.filter((id) => id !== 'i1') }));
        const mislabelled = {
          removable: [
            ...byRule.removable.filter((id) => id !== 'i1'),
            ...groups.filter((g) => g.items.length < 2).flatMap((g) => g.items),
          ],
          redundantGroups: groups.filter((g) => g.items.length >= 2),
        };
        mislabelled.removable = [...new Set(mislabelled.removable)].filter(
          (id) => !mislabelled.redundantGroups.some((g) => g.items.includes(id)),
        );
        const problems = counterfactualProblems(f, oracle(mislabelled));
        expect(problems.some((p) => p.kind === 'not-necessary' && p.itemId === 'i1')).toBe(true);
      }),
    );
  });
});
