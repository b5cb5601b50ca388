// Held-out review E (7 December): defects found and left open, each a judgement the lead has to make (the fixed ones
// are in held-out-E.test.ts and held-out-rung01.test.ts). `it.fails` asserts the safe behaviour and fails while the
// defect is there, so a fix shows up here as a failing test to turn into an `it`; each has the case the rule must
// still allow beside it.
import { describe, expect, it } from 'vitest';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView, note } from './build-view.js';

const V = (name: string, view: ReturnType<typeof makeView>, id: string) => at(decideById(condition(name), view), id);

describe('open: the gate does not protect what the oracle counts as declared (a consequence record, open work)', () => {
  // src/oracle/counterfactual.ts declaredProtection: "any unit's consequence record is where its result lives".
  const ws = 'workspace:payments';
  const run = (base: string, turn: number, content: string): ItemSpec[] =>
    callAndResult(
      base,
      turn,
      'run_tests',
      { suite: 'unit' },
      { content, source: { identity: ws, version: 'UNKNOWN', mutable: true }, covers: ['t1', 't2'] },
    );
  const view = (record: string) =>
    makeView({
      items: [
        ...callAndResult('0', 0, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
        ...run('1', 1, 'retry_backoff passed; 2 passed'),
        ...callAndResult('2', 2, 'edit', { path: 'pool.ts', v: 2 }, { content: 'ok' }, { effects: [ws] }),
        ...run('3', 3, 'retry_backoff FAILED; 1 passed'),
        note('n4', 4, 'Done: retry_backoff passed'),
      ],
      visible: {
        workUnits: [
          {
            id: 'wu1',
            description: 'fix retry',
            state: 'closed',
            traceItems: ['c0', 'r0', 'c1'],
            consequence: { itemId: record, strings: ['retry_backoff passed'] },
          },
        ],
      },
    });
  for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3'])
    it.fails(`${name}: supersedes r1, wu1's consequence record and the last item holding its string`, () => {
      expect(V(name, view('r1'), 'r1').verdict).not.toBe('eligible');
    });
  it('r1 is superseded when it records nothing', () => {
    expect(V('checked-supersession', view('n4'), 'r1').verdict).toBe('eligible');
  });
});
