import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mostRemovable, oracleJudge } from '../../src/oracle/judge.js';
import { OraclePoint } from '../../src/fixture/schema.js';

const point = OraclePoint.parse({
  prunePoint: 'pp1',
  removable: ['a'],
  partial: [{ itemId: 'b', residue: ['tool', 'errorType', 'message'] }],
  redundantGroups: [{ items: ['c1', 'c2', 'c3'], keep: 1 }],
});

describe('the oracle judge', () => {
  const judge = oracleJudge(point);

  it("counts removable, partial and each group's spare copies as eligible", () => {
    expect(judge.eligibleCount).toBe(1 + 1 + 2);
  });

  it('scores necessary items as false prunes and removable ones as true', () => {
    const out = judge.judge([{ itemId: 'a' }, { itemId: 'n' }]);
    expect(out.get('a')).toBe('true-prune');
    expect(out.get('n')).toBe('false-prune');
    expect(judge.verdict('n')).toBe('necessary');
  });

  it('requires the residue a partial item must keep', () => {
    expect(judge.judge([{ itemId: 'b' }]).get('b')).toBe('false-prune');
    expect(judge.judge([{ itemId: 'b', residue: ['tool', 'message'] }]).get('b')).toBe('false-prune');
    expect(judge.judge([{ itemId: 'b', residue: ['tool', 'errorType', 'message', 'fields.line'] }]).get('b')).toBe(
      'true-prune',
    );
  });

  it('lets any copies of a group go but the last one needed, which is the false prune', () => {
    const out = judge.judge([{ itemId: 'c1' }, { itemId: 'c2' }, { itemId: 'c3' }]);
    expect([out.get('c1'), out.get('c2'), out.get('c3')]).toEqual(['true-prune', 'true-prune', 'false-prune']);
    expect(judge.judge([{ itemId: 'c3' }]).get('c3')).toBe('true-prune');
  });
});

describe('overlapping redundant groups', () => {
  // b holds two facts: the first is also in a, the second also in c.
  const overlap = oracleJudge(
    OraclePoint.parse({ prunePoint: 'pp', redundantGroups: [{ items: ['a', 'b'] }, { items: ['b', 'c'] }] }),
  );

  it('counts a removal against every group its item is in', () => {
    const out = overlap.judge([{ itemId: 'b' }, { itemId: 'a' }]);
    expect([out.get('b'), out.get('a')]).toEqual(['true-prune', 'false-prune']);
    const other = overlap.judge([{ itemId: 'b' }, { itemId: 'c' }]);
    expect(other.get('c')).toBe('false-prune');
  });

  it('lets the copies that leave every group a survivor go', () => {
    const out = overlap.judge([{ itemId: 'a' }, { itemId: 'c' }]);
    expect([out.get('a'), out.get('c')]).toEqual(['true-prune', 'true-prune']);
    // b may not go after a: group one would have none left.
    expect(overlap.judge([{ itemId: 'a' }, { itemId: 'b' }]).get('b')).toBe('false-prune');
  });

  it('counts as eligible the most removals that can be true together, not the sum of spares', () => {
    expect(overlap.eligibleCount).toBe(2);
    // Three groups over three items, each pair a group: one removal at most.
    const triangle = OraclePoint.parse({
      prunePoint: 'pp',
      redundantGroups: [{ items: ['a', 'b'] }, { items: ['b', 'c'] }, { items: ['a', 'c'] }],
    });
    expect(mostRemovable(triangle.redundantGroups)).toBe(1);
    expect(
      mostRemovable(
        OraclePoint.parse({
          prunePoint: 'pp',
          redundantGroups: [{ items: ['a', 'b', 'c'], keep: 1 }, { items: ['d', 'e'] }],
        }).redundantGroups,
      ),
    ).toBe(3);
  });
});

describe('the judge over random overlapping groups', () => {
  it('never scores more true prunes than it counts eligible, in any removal order', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const groups = fc.array(fc.uniqueArray(fc.constantFrom(...ids), { minLength: 2, maxLength: 4 }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(groups, fc.shuffledSubarray(ids), (gs, order) => {
        const j = oracleJudge(OraclePoint.parse({ prunePoint: 'pp', redundantGroups: gs.map((items) => ({ items })) }));
        const trues = [...j.judge(order.map((itemId) => ({ itemId }))).values()].filter(
          (o) => o === 'true-prune',
        ).length;
        expect(trues).toBeLessThanOrEqual(j.eligibleCount);
      }),
    );
  });
});
