// Held-out review E (7 December): rules found acting where the check they name did not hold, each held with the case
// it must refuse and the case it must still allow.
import { describe, expect, it } from 'vitest';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';
import { holdsAsUnit } from '../../src/policy/regenerability.js';

const V = (name: string, view: ReturnType<typeof makeView>, id: string) => at(decideById(condition(name), view), id);

describe('rung 2: a failed read is failed work, never an older version a newer read supersedes', () => {
  const ID = 'repo:deploy/key.pem';
  const src = (sel = true) => ({
    identity: ID,
    version: 'UNKNOWN',
    mutable: true,
    ...(sel ? { selector: { kind: 'whole' } } : {}),
  });
  const view = (message: string, fields: Record<string, string>, steps: unknown[] = []) =>
    makeView({
      items: [
        note('n0', 0, 'plan: if the key is unreadable, ask ops (ticket OPS-7)'),
        ...callAndResult(
          '1',
          1,
          'read_file',
          { path: 'deploy/key.pem' },
          {
            content: 'EACCES: permission denied, owner ops; see n0',
            source: src(),
            status: {
              state: 'error',
              errorType: 'EACCES',
              message,
              fields,
              ...(message === 'exit code 1' ? { synthesized: true } : {}),
            },
          },
        ),
        ...callAndResult('2', 2, 'chmod', { path: 'deploy/key.pem' }, { content: 'ok' }, { effects: [ID] }),
        ...callAndResult('3', 3, 'read_file', { path: 'deploy/key.pem' }, { content: 'KEYDATA', source: src() }),
      ],
      visible: { pendingSteps: steps },
    });
  const step = [{ id: 's1', description: 'follow the plan', references: ['n0'] }];
  for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3']) {
    it(`${name}: does not remove wholly a failed read whose bulk rung 2 keeps for a pending step`, () => {
      expect(V(name, view('permission denied', { code: '13' }, step), 'r1').verdict).not.toBe('eligible');
    });
  }
  it('a successful older read of that source is still superseded, in the single and the ladders', () => {
    const okFirst = makeView({
      items: [
        ...callAndResult('1', 1, 'read_file', { path: 'deploy/key.pem' }, { content: 'OLDKEY see n0', source: src() }),
        ...callAndResult('2', 2, 'chmod', { path: 'deploy/key.pem' }, { content: 'ok' }, { effects: [ID] }),
        ...callAndResult('3', 3, 'read_file', { path: 'deploy/key.pem' }, { content: 'KEYDATA', source: src() }),
      ],
    });
    for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3'])
      expect(V(name, okFirst, 'r1').verdict, name).toBe('eligible');
  });
  it('ladder-0-3: the failed read still loses its bulk to rung 2 where nothing needs it', () => {
    const d = V('ladder-0-3', view('permission denied', { code: '13' }), 'r1');
    expect(d).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
  });
  it('a failed run that reports its coverage keys observed its state, and a newer run covering them supersedes it', () => {
    // The other side of the rule: tests that failed are an observation of what they covered, not a failed read.
    const run = (id: string, turn: number, content: string, state: 'ok' | 'error') =>
      callAndResult(
        id,
        turn,
        'run_tests',
        { target: 'pool' },
        {
          content,
          covers: ['test_pool_size', 'test_pool_retry'],
          source: { identity: 'repo:tests/pool', version: 'UNKNOWN', mutable: true },
          status:
            state === 'ok'
              ? { state: 'ok' }
              : { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failed: '1' } },
        },
      );
    const runs = makeView({
      items: [
        ...run('1', 1, 'FAILED test_pool_size', 'error'),
        ...callAndResult('2', 2, 'edit', { path: 'src/pool.ts' }, { content: 'ok' }, { effects: ['repo:tests/pool'] }),
        ...run('3', 3, 'passed 2', 'ok'),
      ],
    });
    expect(V('checked-supersession', runs, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
  });
  it('ladder-0-3: a failed read with nothing recorded is not removed wholly by supersession', () => {
    const d = V('ladder-0-3', view('exit code 1', {}, []), 'r1');
    expect(d.verdict === 'eligible' && d.residue === undefined).toBe(false);
  });
});

describe('rung 2 residue: a failed call whose effect on a source is recorded as done is not failed work', () => {
  const view = (effects: unknown[]) =>
    makeView({
      items: [
        ...callAndResult(
          '1',
          1,
          'psql',
          { sql: 'ALTER TABLE orders ADD region text; ALTER TABLE orders ADD zone text' },
          {
            content: 'ERROR: column "zone" conflicts (statement 2 of 2)',
            status: { state: 'error', errorType: 'SqlError', message: 'column conflicts', fields: { line: '1' } },
          },
          { effects },
        ),
      ],
    });
  const succeeded = [{ source: 'db:orders', outcome: 'succeeded' }];
  for (const name of ['errored-input-residue', 'ladder-0-2', 'ladder-0-3']) {
    it(`${name}: keeps both halves when an effect succeeded, abstains when its outcome is unknown`, () => {
      for (const id of ['c1', 'r1']) {
        // The rule's KEEP, with its reason; in a ladder it binds the later steps, ladder-0-3's predictor included.
        expect(V(name, view(succeeded), id), id).toMatchObject({ verdict: 'keep', rule: 'errored-input-residue' });
        expect(V(name, view(succeeded), id).reason, id).toContain(
          "its call's effect on db:orders is recorded as succeeded, so it did not fail as a whole",
        );
        expect(V(name, view([{ source: 'db:orders', outcome: 'unknown' }]), id).verdict, id).toBe('abstain');
        // Two bare strings record no outcome for either.
        expect(V(name, view(['db:orders', 'db:audit']), id).verdict, id).toBe('abstain');
      }
    });
    it(`${name}: still cuts both halves to their residue when every effect failed, or none was recorded`, () => {
      for (const effects of [[{ source: 'db:orders', outcome: 'failed' }], ['db:orders'], []])
        for (const id of ['c1', 'r1'])
          expect(V(name, view(effects), id), `${JSON.stringify(effects)} ${id}`).toMatchObject({
            verdict: 'eligible',
            rule: 'errored-input-residue',
          });
    });
  }
  it('says why it abstains', () => {
    expect(V('errored-input-residue', view([{ source: 'db:orders', outcome: 'unknown' }]), 'c1').reason).toContain(
      "its call's effect on db:orders has no recorded outcome",
    );
  });
});

describe('the gate: a user constraint is held elsewhere only where another item repeats it whole, never inside a negation', () => {
  const view = (other: string) =>
    makeView({
      items: [
        { id: 'u', turn: 1, kind: 'constraint', origin: 'user', content: 'use tabs' },
        note('n2', 2, other),
        note('rec', 3, 'Done: formatter configured'),
      ],
      visible: { workUnits: [closedUnit('wu', ['u'], 'rec', ['formatter configured'])] },
    });
  for (const name of ['verified-completion', 'ladder-0-3'])
    it(`${name}: keeps u, whose text survives only in "never use tabs"`, () => {
      expect(V(name, view('Decision: the linter says never use tabs, so use spaces'), 'u').verdict).not.toBe(
        'eligible',
      );
    });
  it('removes u when a note restates it as a sentence, a line or a quotation', () => {
    for (const other of ['Reminder: use tabs', 'Notes\nuse tabs\nend', 'The user said "use tabs".', '- use tabs'])
      for (const name of ['verified-completion', 'ladder-0-3'])
        expect(V(name, view(other), 'u').verdict, `${name}: ${other}`).toBe('eligible');
  });
  it('keeps u when nothing else holds its text', () => {
    expect(V('verified-completion', view('Decision: spaces'), 'u').verdict).not.toBe('eligible');
  });
});

describe('holdsAsUnit: what counts as repeating a user record whole', () => {
  it('a line, a quotation, or a sentence after a colon, a sentence end or a bullet', () => {
    for (const holder of [
      'use tabs',
      'a\nuse tabs\nb',
      'He said "use tabs".',
      "'use tabs'",
      'Remember: use tabs.',
      'Done. use tabs; always',
      '- use tabs',
      '\u201cuse tabs\u201d',
    ])
      expect(holdsAsUnit(holder, 'use tabs'), holder).toBe(true);
  });
  it('not a bare substring inside other words or a sentence that says something else', () => {
    for (const holder of [
      'never use tabs, so use spaces',
      'Do not use tabs.',
      'reuse tabsy',
      'we use tabsets',
      'and use tabs',
      // Words after it in its clause may qualify it (review G, judgement 1): a comma or a closing quote mark does not
      // end the clause.
      'Done. use tabs, always',
      'The user said "use tabs" at the start',
    ])
      expect(holdsAsUnit(holder, 'use tabs'), holder).toBe(false);
    expect(holdsAsUnit('anything', '')).toBe(false);
  });
});
