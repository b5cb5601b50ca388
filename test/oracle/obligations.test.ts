// The obligation judge's new needs, each from both sides: what still meets an obligation after a removal and what
// loses it (anyOf alternatives, facts that are not strings, a placeholder that carries a needed path).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildView } from '../../src/fixture/view.js';
import { markerText } from '../../src/engine/placeholder.js';
import { residueText } from '../../src/fixture/residue.js';
import { obligationsAt } from '../../src/oracle/obligations.js';
import { fixture, item, judged, obligation, result } from './build.js';

describe('anyOf: an obligation met by any one of several parts', () => {
  const f = fixture(
    [item('a', 1, 'the fix is in src/pay.ts'), item('b', 2, 'patched src/pay.ts line 40'), item('c', 3, 'unrelated')],
    [obligation('where', { anyOf: [{ itemIds: ['a'] }, { strings: ['line 40'] }] })],
  );

  it('holds while any one alternative holds', () => {
    expect(judged(f, [])).toEqual({ where: true });
    expect(judged(f, ['a'])).toEqual({ where: true });
    expect(judged(f, ['b'])).toEqual({ where: true });
  });

  it('is lost when every alternative is lost, and says what each missed', () => {
    expect(judged(f, ['a', 'b'])).toEqual({ where: false });
    const point = f.prunePoints[0]!;
    const out = obligationsAt({
      fixture: f,
      point,
      view: buildView(f, 'p', () => 1),
      removals: [
        { itemId: 'a', leftBehind: '' },
        { itemId: 'b', leftBehind: '' },
      ],
    });
    expect(out[0]!.missing).toEqual(['any of: item a | line 40']);
  });

  it('still requires the all-of part beside the alternatives', () => {
    const g = fixture(
      [item('a', 1, 'alpha'), item('b', 2, 'beta'), item('t', 3, 'the task')],
      [obligation('both', { itemIds: ['t'], anyOf: [{ itemIds: ['a'] }, { itemIds: ['b'] }] })],
    );
    expect(judged(g, ['a'])).toEqual({ both: true });
    expect(judged(g, ['t'])).toEqual({ both: false });
  });

  it('counts placeholder text toward a string alternative', () => {
    expect(judged(f, ['a', { itemId: 'b', leftBehind: '[pruned b: line 40]' }])).toEqual({ where: true });
  });
});

describe('facts that are not strings', () => {
  const f = fixture(
    [
      result('search', 1, 'grep: no matches for "legacyPay"'),
      result('tests', 2, 'Tests 48 passed (48)'),
      result('oom', 3, '(no output)', {
        state: 'error',
        errorType: 'OOMKilled',
        message: 'killed with exit code 137',
        fields: { exitCode: '137' },
      }),
    ],
    [
      obligation('nothing-left', { facts: [{ item: 'search', fact: 'no-match' }] }),
      obligation('green', { facts: [{ item: 'tests', fact: 'passed' }] }),
      obligation('died', { facts: [{ item: 'oom', fact: 'failed' }] }),
      obligation('code', { facts: [{ item: 'oom', fact: 'exit-code', value: '137' }] }),
    ],
  );
  const view = buildView(f, 'p', () => 1);
  const oom = view.items.find((i) => i.id === 'oom')!;

  it('hold while their item stays', () => {
    expect(judged(f, [])).toEqual({ 'nothing-left': true, green: true, died: true, code: true });
  });

  it('are lost with their item when nothing left behind states them', () => {
    expect(judged(f, ['search', 'tests', 'oom'])).toEqual({
      'nothing-left': false,
      green: false,
      died: false,
      code: false,
    });
  });

  it('are not stated by a marker, which records metadata only', () => {
    const marker = markerText(view.items[0]!, { rule: 'r', rung: 0, recoverability: 'none' });
    expect(judged(f, [{ itemId: 'search', leftBehind: marker }])['nothing-left']).toBe(false);
  });

  it('are stated by a residue that keeps the payload', () => {
    const kept = residueText(view, view.items[1]!, ['tool', 'payload']);
    expect(judged(f, [{ itemId: 'tests', leftBehind: kept, residue: ['tool', 'payload'] }]).green).toBe(true);
  });

  it('a failure and its exit code are stated by the recorded error fields the residue kept, and only by those', () => {
    const typeOnly = residueText(view, oom, ['tool', 'errorType']);
    expect(judged(f, [{ itemId: 'oom', leftBehind: typeOnly }])).toMatchObject({ died: true, code: false });
    const withCode = residueText(view, oom, ['tool', 'errorType', 'fields.exitCode']);
    expect(judged(f, [{ itemId: 'oom', leftBehind: withCode }])).toMatchObject({ died: true, code: true });
    const message = residueText(view, oom, ['message']);
    expect(judged(f, [{ itemId: 'oom', leftBehind: message }])).toMatchObject({ died: true, code: true });
    // Claiming a residue whose text is not in context states nothing.
    expect(judged(f, [{ itemId: 'oom', leftBehind: '', residue: ['errorType', 'fields.exitCode'] }])).toMatchObject({
      died: false,
      code: false,
    });
  });

  it('a wrong exit code is not stated by the kept field', () => {
    const g = fixture(
      [result('oom', 3, '', { state: 'error', errorType: 'Exit', message: 'exit 1', fields: { exitCode: '1' } })],
      [obligation('code', { facts: [{ item: 'oom', fact: 'exit-code', value: '137' }] })],
    );
    const v = buildView(g, 'p', () => 1);
    expect(
      judged(g, [{ itemId: 'oom', leftBehind: residueText(v, v.items[0]!, ['fields.exitCode', 'message']) }]).code,
    ).toBe(false);
  });

  it("are recovered when the item's own bytes come back by a pointer the obligation allows", () => {
    const bytes = 'grep: no matches for "legacyPay"';
    const hash = `sha256:${createHash('sha256').update(bytes, 'utf8').digest('hex')}`;
    const items = [
      result(
        'search',
        1,
        bytes,
        { state: 'ok' },
        { flags: { durablePointer: { storeKey: 'notes/search', contentHash: hash } } },
      ),
    ];
    const world = { store: [{ key: 'notes/search', content: bytes }] };
    const allowed = fixture(
      items,
      [obligation('n', { facts: [{ item: 'search', fact: 'no-match' }] }, { pointerSatisfies: true })],
      {},
      world,
    );
    const refused = fixture(items, [obligation('n', { facts: [{ item: 'search', fact: 'no-match' }] })], {}, world);
    expect(judged(allowed, ['search']).n).toBe(true);
    expect(judged(refused, ['search']).n).toBe(false);
  });
});

describe('a placeholder that carries a needed string', () => {
  const f = fixture(
    [
      result(
        'read',
        1,
        'src/limits.ts\n1: export const LIMIT = 20;',
        { state: 'ok' },
        { source: { identity: 'src/limits.ts', version: { kind: 'content-hash', value: 'h1' }, mutable: true } },
      ),
    ],
    [obligation('path', { itemIds: ['read'], strings: ['src/limits.ts'] }), obligation('bytes', { itemIds: ['read'] })],
  );
  const view = buildView(f, 'p', () => 1);
  const marker = markerText(view.items[0]!, { rule: 'r', rung: 1, recoverability: 're-read' });

  it('meets a string need by the path it names', () => {
    expect(marker).toContain('src/limits.ts');
    expect(judged(f, [{ itemId: 'read', leftBehind: marker }]).path).toBe(true);
  });

  it('does not meet the need without the placeholder', () => {
    expect(judged(f, []).path).toBe(true);
    expect(judged(f, ['read']).path).toBe(false);
  });

  it("never meets an item need: the item's bytes are gone", () => {
    expect(judged(f, [{ itemId: 'read', leftBehind: marker }]).bytes).toBe(false);
  });
});

describe("the judge finds each needed string's holders once per context", () => {
  // A frozen view whose items count how often their content is read: the holders of a string are a question of the
  // context alone, so judges built for other removals over the same view must not read the items again for it.
  const f = fixture(
    [item('a', 1, 'the fix is in src/pay.ts'), item('b', 2, 'patched src/pay.ts line 40'), item('c', 3, 'unrelated')],
    [obligation('where', { strings: ['src/pay.ts'] })],
  );
  const base = buildView(f, 'p', () => 1);
  let reads = 0;
  const items = Object.freeze(
    base.items.map((i) =>
      Object.freeze(
        Object.defineProperty({ ...i }, 'content', {
          get: () => {
            reads += 1;
            return i.content;
          },
          enumerable: true,
        }),
      ),
    ),
  );
  const view = Object.freeze({ ...base, items });
  const point = f.prunePoints[0]!;
  const judge = (removed: readonly string[]) =>
    obligationsAt({ fixture: f, point, view, removals: removed.map((itemId) => ({ itemId, leftBehind: '' })) })[0]!
      .preserved;

  it('reads the items for a string the first time only, and still judges each removal on its own', () => {
    expect(judge([])).toBe(true);
    const first = reads;
    expect(first).toBeGreaterThan(0);
    expect(judge(['a'])).toBe(true);
    expect(judge(['b'])).toBe(true);
    expect(judge(['a', 'b'])).toBe(false);
    expect(reads).toBe(first);
  });

  it('an unfrozen view is searched afresh on every call (nothing is cached on what may still change)', () => {
    const open = { ...base, items: base.items.map((i) => ({ ...i })) };
    const at = (removed: readonly string[]) =>
      obligationsAt({
        fixture: f,
        point,
        view: open,
        removals: removed.map((itemId) => ({ itemId, leftBehind: '' })),
      })[0]!.preserved;
    expect(at(['a', 'b'])).toBe(false);
    open.items[2] = { ...open.items[2]!, content: 'moved to src/pay.ts' };
    expect(at(['a', 'b'])).toBe(true);
  });
});

describe('one frozen context judged under many removal sets (every condition at a prune point shares its view)', () => {
  // "prod-eu" is held by a and by b; "line 40" by b alone. Which items hold a string is found once per context, so
  // the answers for one removal set must never leak into another's.
  const f = fixture(
    [item('a', 1, 'never deploy to prod-eu'), item('b', 2, 'prod-eu: patched line 40'), item('c', 3, 'unrelated')],
    [obligation('region', { strings: ['prod-eu'] }), obligation('line', { strings: ['line 40'] })],
  );
  const point = f.prunePoints[0]!;
  const view = buildView(f, 'p', () => 1);
  const judge = (removals: { itemId: string; leftBehind: string }[]) =>
    Object.fromEntries(obligationsAt({ fixture: f, point, view, removals }).map((o) => [o.id, o.preserved]));

  it('keeps what another copy or a placeholder still holds, and loses what no item in context holds any more', () => {
    expect(Object.isFrozen(view.items)).toBe(true);
    for (let round = 0; round < 2; round += 1) {
      expect(judge([])).toEqual({ region: true, line: true });
      expect(judge([{ itemId: 'b', leftBehind: '' }])).toEqual({ region: true, line: false });
      expect(
        judge([
          { itemId: 'a', leftBehind: '' },
          { itemId: 'b', leftBehind: '' },
        ]),
      ).toEqual({ region: false, line: false });
      expect(
        judge([
          { itemId: 'a', leftBehind: '' },
          { itemId: 'b', leftBehind: '[pruned b: line 40]' },
        ]),
      ).toEqual({ region: false, line: true });
      expect(judge([{ itemId: 'a', leftBehind: '' }])).toEqual({ region: true, line: true });
      expect(
        judge([
          { itemId: 'c', leftBehind: 'prod-eu' },
          { itemId: 'a', leftBehind: '' },
          { itemId: 'b', leftBehind: '' },
        ]),
      ).toEqual({ region: true, line: false });
    }
  });
});
