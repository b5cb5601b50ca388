import { describe, expect, it } from 'vitest';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView, note, verdicts } from './build-view.js';

const cs = condition('checked-supersession');
const ws = 'workspace:payments';
const run = (base: string, turn: number, content: string, covers: string[] | undefined, args: Record<string, unknown> = { suite: 'unit', flags: ['-q'] }) =>
  callAndResult(base, turn, 'run_tests', args, {
    content,
    source: { identity: ws, version: 'UNKNOWN', mutable: true },
    ...(covers ? { covers } : {}),
  });
const edit = (base: string, turn: number, effects: string[] = [ws]): ItemSpec[] =>
  callAndResult(base, turn, 'edit', { path: 'src/db/pool.ts' }, { content: 'edited' }, { effects });

describe('checked-supersession (rung 2)', () => {
  it('makes the older run eligible when a newer same call covers it and a recorded edit explains the change', () => {
    const view = makeView({ items: [...run('1', 1, '2 failed', ['t1', 't2']), ...edit('2', 2), ...run('3', 3, 'all passed', ['t1', 't2', 't3'])] });
    const d = decideById(cs, view);
    expect(at(d, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession', rung: 2 });
    expect(at(d, 'r1').reason).toBe(
      `superseded by r3: same tool on ${ws}, its scope contains r1's, and c2 between them changed ${ws}, each effect recorded as succeeded`,
    );
    expect(at(d, 'r3').verdict).toBe('keep');
  });

  it('abstains on unexplained drift: outputs differ and no transition lies between them', () => {
    const view = makeView({ items: [...run('1', 1, '2 failed', ['t1']), ...run('3', 3, 'all passed', ['t1']), ...edit('4', 4)] });
    const d = decideById(cs, view);
    expect(at(d, 'r1').verdict).toBe('abstain');
    expect(at(d, 'r1').reason).toContain('no recorded transition');
  });

  it('abstains when coverage is unparsed on either side', () => {
    for (const [older, newer] of [[undefined, ['t1']], [['t1'], undefined]] as const) {
      const view = makeView({ items: [...run('1', 1, 'a', older ? [...older] : undefined), ...edit('2', 2), ...run('3', 3, 'b', newer ? [...newer] : undefined)] });
      const d = decideById(cs, view);
      expect(at(d, 'r1').verdict).toBe('abstain');
      expect(at(d, 'r1').reason).toContain('unparsed');
    }
  });

  it('keeps the older run when the newer one covers less', () => {
    const view = makeView({ items: [...run('1', 1, 'a', ['t1', 't2']), ...edit('2', 2), ...run('3', 3, 'b', ['t1'])] });
    expect(at(decideById(cs, view), 'r1').verdict).toBe('keep');
  });

  it('needs the same canonical arguments (key order does not matter, values do)', () => {
    const reordered = makeView({
      items: [...run('1', 1, 'a', ['t1'], { suite: 'unit', flags: ['-q'] }), ...edit('2', 2), ...run('3', 3, 'b', ['t1'], { flags: ['-q'], suite: 'unit' })],
    });
    expect(at(decideById(cs, reordered), 'r1').verdict).toBe('eligible');
    const different = makeView({
      items: [...run('1', 1, 'a', ['t1'], { suite: 'unit' }), ...edit('2', 2), ...run('3', 3, 'b', ['t1'], { suite: 'integration' })],
    });
    expect(at(decideById(cs, different), 'r1').verdict).toBe('keep');
  });

  it('needs the transition to name the observed source', () => {
    const view = makeView({ items: [...run('1', 1, 'a', ['t1']), ...edit('2', 2, ['repo:elsewhere']), ...run('3', 3, 'b', ['t1'])] });
    expect(at(decideById(cs, view), 'r1').verdict).toBe('abstain');
  });

  it('leaves identical output with no transition to the identity rungs', () => {
    const view = makeView({ items: [...run('1', 1, 'same', ['t1']), note('n2', 2, 'thinking'), ...run('3', 3, 'same', ['t1'])] });
    expect(verdicts(cs, view)).toMatchObject({ r1: 'keep', r3: 'keep' });
  });
});
