import { describe, expect, it } from 'vitest';
import { oracleJudge } from '../../src/oracle/judge.js';
import { OraclePoint } from '../../src/fixture/schema.js';

const point = OraclePoint.parse({
  prunePoint: 'pp1',
  removable: ['a'],
  partial: [{ itemId: 'b', residue: ['tool', 'errorType', 'message'] }],
  redundantGroups: [{ items: ['c1', 'c2', 'c3'], keep: 1 }],
});

describe('the oracle judge', () => {
  const judge = oracleJudge(point);

  it('counts removable, partial and each group\'s spare copies as eligible', () => {
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
    expect(judge.judge([{ itemId: 'b', residue: ['tool', 'errorType', 'message', 'fields.line'] }]).get('b')).toBe('true-prune');
  });

  it('lets any copies of a group go but the last one needed, which is the false prune', () => {
    const out = judge.judge([{ itemId: 'c1' }, { itemId: 'c2' }, { itemId: 'c3' }]);
    expect([out.get('c1'), out.get('c2'), out.get('c3')]).toEqual(['true-prune', 'true-prune', 'false-prune']);
    expect(judge.judge([{ itemId: 'c3' }]).get('c3')).toBe('true-prune');
  });
});
