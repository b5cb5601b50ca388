import { describe, expect, it } from 'vitest';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView, note, verdicts } from './build-view.js';

const cs = condition('checked-supersession');
const ws = 'workspace:payments';
const run = (
  base: string,
  turn: number,
  content: string,
  covers: string[] | undefined,
  args: Record<string, unknown> = { suite: 'unit', flags: ['-q'] },
) =>
  callAndResult(base, turn, 'run_tests', args, {
    content,
    source: { identity: ws, version: 'UNKNOWN', mutable: true },
    ...(covers ? { covers } : {}),
  });
const edit = (base: string, turn: number, effects: string[] = [ws]): ItemSpec[] =>
  callAndResult(base, turn, 'edit', { path: 'src/db/pool.ts' }, { content: 'edited' }, { effects });

describe('checked-supersession (rung 2)', () => {
  it('makes the older run eligible when a newer same call covers it and a recorded edit explains the change', () => {
    const view = makeView({
      items: [
        ...run('1', 1, '2 failed', ['t1', 't2']),
        ...edit('2', 2),
        ...run('3', 3, 'all passed', ['t1', 't2', 't3']),
      ],
    });
    const d = decideById(cs, view);
    expect(at(d, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession', rung: 2 });
    expect(at(d, 'r1').reason).toBe(
      `superseded by r3: same tool on ${ws}, its coverage keys include all of r1's, and c2 between them changed ${ws}, each effect recorded as succeeded`,
    );
    expect(at(d, 'r3').verdict).toBe('keep');
  });

  it('abstains when the newer run that reports the coverage keys was truncated, and acts when it was not', () => {
    const newer = (selector: unknown) =>
      run('3', 3, 'all passed ... output truncated ...', ['t1', 't2', 't3']).map((item) =>
        item.kind === 'tool-result'
          ? { ...item, source: { ...(item.source as object), selector } as ItemSpec['source'] }
          : item,
      );
    const view = (selector: unknown) =>
      makeView({ items: [...run('1', 1, '2 failed', ['t1', 't2']), ...edit('2', 2), ...newer(selector)] });
    const cut = at(decideById(cs, view({ kind: 'other', truncated: true })), 'r1');
    expect(cut.verdict).toBe('abstain');
    expect(cut.reason).toContain('r3 was truncated');
    expect(at(decideById(cs, view({ kind: 'other' })), 'r1').verdict).toBe('eligible');
    expect(at(decideById(cs, view({ kind: 'whole' })), 'r1').verdict).toBe('eligible');
  });

  it('abstains on unexplained drift: outputs differ and no transition lies between them', () => {
    const view = makeView({
      items: [...run('1', 1, '2 failed', ['t1']), ...run('3', 3, 'all passed', ['t1']), ...edit('4', 4)],
    });
    const d = decideById(cs, view);
    expect(at(d, 'r1').verdict).toBe('abstain');
    expect(at(d, 'r1').reason).toContain('no recorded transition');
  });

  it('abstains when coverage is unparsed on either side', () => {
    for (const [older, newer] of [
      [undefined, ['t1']],
      [['t1'], undefined],
    ] as const) {
      const view = makeView({
        items: [
          ...run('1', 1, 'a', older ? [...older] : undefined),
          ...edit('2', 2),
          ...run('3', 3, 'b', newer ? [...newer] : undefined),
        ],
      });
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
      items: [
        ...run('1', 1, 'a', ['t1'], { suite: 'unit', flags: ['-q'] }),
        ...edit('2', 2),
        ...run('3', 3, 'b', ['t1'], { flags: ['-q'], suite: 'unit' }),
      ],
    });
    expect(at(decideById(cs, reordered), 'r1').verdict).toBe('eligible');
    const different = makeView({
      items: [
        ...run('1', 1, 'a', ['t1'], { suite: 'unit' }),
        ...edit('2', 2),
        ...run('3', 3, 'b', ['t1'], { suite: 'integration' }),
      ],
    });
    expect(at(decideById(cs, different), 'r1').verdict).toBe('keep');
  });

  it('needs the transition to name the observed source', () => {
    const view = makeView({
      items: [...run('1', 1, 'a', ['t1']), ...edit('2', 2, ['repo:elsewhere']), ...run('3', 3, 'b', ['t1'])],
    });
    expect(at(decideById(cs, view), 'r1').verdict).toBe('abstain');
  });

  it('leaves identical output with no transition to the identity rungs', () => {
    const view = makeView({
      items: [...run('1', 1, 'same', ['t1']), note('n2', 2, 'thinking'), ...run('3', 3, 'same', ['t1'])],
    });
    expect(verdicts(cs, view)).toMatchObject({ r1: 'keep', r3: 'keep' });
  });
});

describe('checked-supersession: scope, per-effect outcomes, what is never superseded', () => {
  const file = 'repo:svc/src/pool.ts';
  const hashOf = (v: string) => ({ kind: 'content-hash', value: v });
  const read = (
    base: string,
    turn: number,
    content: string,
    selector: unknown,
    args: Record<string, unknown> = { path: 'src/pool.ts' },
  ) =>
    callAndResult(base, turn, 'read_file', args, {
      content,
      source: { identity: file, version: hashOf(content), mutable: true, selector },
    });
  const editWith = (base: string, turn: number, effects: unknown[]): ItemSpec[] =>
    callAndResult(base, turn, 'edit', { path: 'src/pool.ts' }, { content: 'edited' }, { effects });

  it('removes a line range contained in a newer range after a succeeded edit, and keeps one not contained', () => {
    const contained = makeView({
      items: [
        ...read('1', 1, 'old 10-20', { kind: 'lines', from: 10, to: 20 }),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...read('3', 3, 'new 1-60', { kind: 'lines', from: 1, to: 60 }, { path: 'src/pool.ts', offset: 0, limit: 60 }),
      ],
    });
    expect(at(decideById(cs, contained), 'r1')).toMatchObject({ verdict: 'eligible' });
    expect(at(decideById(cs, contained), 'r1').reason).toBe(
      `superseded by r3: same tool on ${file}, its view (read_file lines 1-60) contains r1's (read_file lines 10-20), and c2 between them changed ${file}, each effect recorded as succeeded`,
    );
    const outside = makeView({
      items: [
        ...read('1', 1, 'old 10-80', { kind: 'lines', from: 10, to: 80 }),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...read('3', 3, 'new 1-60', { kind: 'lines', from: 1, to: 60 }),
      ],
    });
    expect(at(decideById(cs, outside), 'r1').verdict).toBe('keep');
  });

  it('lets an untruncated whole read contain any view, and abstains on a truncated newer read', () => {
    const whole = makeView({
      items: [
        ...read('1', 1, 'search hit', { kind: 'search', query: 'acquire' }),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...read('3', 3, 'whole file', { kind: 'whole' }),
      ],
    });
    expect(at(decideById(cs, whole), 'r1').verdict).toBe('eligible');
    const cut = makeView({
      items: [
        ...read('1', 1, 'lines', { kind: 'lines', from: 1, to: 20 }),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...read('3', 3, 'first 2000 lines', { kind: 'whole', truncated: true }),
      ],
    });
    expect(at(decideById(cs, cut), 'r1').verdict).toBe('abstain');
    expect(at(decideById(cs, cut), 'r1').reason).toContain('r3 was truncated');
  });

  it('abstains when the relied-on effect failed or its outcome is unknown, naming the call', () => {
    for (const [effects, words] of [
      [[{ source: file, outcome: 'failed' }], 'c2 failed to change'],
      [[{ source: file, outcome: 'unknown' }], 'no outcome is recorded for the effect of c2'],
      [[file, 'repo:svc/other.ts'], 'no outcome is recorded for the effect of c2'],
      [
        [
          { source: 'repo:svc/other.ts', outcome: 'succeeded' },
          { source: file, outcome: 'failed' },
        ],
        'c2 failed to change',
      ],
    ] as const) {
      const view = makeView({
        items: [
          ...read('1', 1, 'a', { kind: 'whole' }),
          ...editWith('2', 2, [...effects]),
          ...read('3', 3, 'b', { kind: 'whole' }),
        ],
      });
      const d = at(decideById(cs, view), 'r1');
      expect(d.verdict).toBe('abstain');
      expect(d.reason).toContain(words);
    }
  });

  it('does not take a failed later observation as a newer version', () => {
    const view = makeView({
      items: [
        ...run('1', 1, '2 failed', ['t1']),
        ...edit('2', 2),
        ...callAndResult(
          '3',
          3,
          'run_tests',
          { suite: 'unit', flags: ['-q'] },
          {
            content: 'runner crashed',
            covers: ['t1'],
            source: { identity: ws, version: 'UNKNOWN', mutable: true },
            status: { state: 'error', errorType: 'Crash', message: 'segfault' },
          },
        ),
      ],
    });
    expect(at(decideById(cs, view), 'r1').verdict).toBe('keep');
  });

  it('never supersedes transient state or a negative result', () => {
    for (const flag of ['transientState', 'negativeResult']) {
      const older = run('1', 1, 'pods: 2/3 ready', ['t1']);
      older[1] = { ...older[1]!, flags: { [flag]: true } };
      const view = makeView({ items: [...older, ...edit('2', 2), ...run('3', 3, 'pods: 3/3 ready', ['t1'])] });
      expect(at(decideById(cs, view), 'r1').verdict).toBe('keep');
    }
  });

  it('abstains on drift between re-observations even when a later transition succeeded', () => {
    const view = makeView({
      items: [
        ...run('1', 1, 'v=500ms', ['k']),
        ...run('2', 2, 'v=5s', ['k']),
        ...edit('3', 3),
        ...run('4', 4, 'v=5', ['k']),
      ],
    });
    const d = decideById(cs, view);
    expect(at(d, 'r1').verdict).toBe('abstain');
    expect(at(d, 'r1').reason).toBe(
      `r2 differs from r1 on ${ws} and no recorded transition between them explains the change`,
    );
    expect(at(d, 'r2').verdict).toBe('eligible');
  });

  it('takes an absent selector as a whole read when the other side records a view, or when both read a recorded version', () => {
    const plain = (base: string, turn: number, content: string, version: unknown = hashOf(content)) =>
      callAndResult(
        base,
        turn,
        'read_file',
        { path: 'src/pool.ts' },
        { content, source: { identity: file, version, mutable: true } },
      );
    const ranged = makeView({
      items: [
        ...read('1', 1, 'old 10-20', { kind: 'lines', from: 10, to: 20 }, { path: 'src/pool.ts', from: 10, to: 20 }),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...plain('3', 3, 'whole new'),
      ],
    });
    expect(at(decideById(cs, ranged), 'r1').verdict).toBe('eligible');
    const versioned = makeView({
      items: [
        ...plain('1', 1, 'whole old'),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...plain('3', 3, 'whole new'),
      ],
    });
    expect(at(decideById(cs, versioned), 'r1').verdict).toBe('eligible');
    const unversioned = makeView({
      items: [
        ...plain('1', 1, 'whole old', 'UNKNOWN'),
        ...editWith('2', 2, [{ source: file, outcome: 'succeeded' }]),
        ...plain('3', 3, 'whole new', 'UNKNOWN'),
      ],
    });
    expect(at(decideById(cs, unversioned), 'r1').verdict).toBe('abstain');
  });

  it('abstains on a re-observation of the same call with no recorded scope at all', () => {
    const view = makeView({ items: [...run('1', 1, 'a', undefined), ...edit('2', 2), ...run('3', 3, 'b', undefined)] });
    expect(at(decideById(cs, view), 'r1').reason).toContain('no coverage keys, selector or version recorded');
  });
});
