// Held-out review E's two rung 0 and rung 1 defects (7 December), fixed in exact-redundancy 2.4.0 and
// source-identity 2.5.0, each held with the cases the rule must refuse and the cases it must still allow, alone, behind
// the gate, and through the ladders. Rung 1: a read pairs with a later read of its view and state only where the read
// that stays shows all it showed (`showsAllOf`). Rung 0: one call text run against two recorded sources, or against a
// recorded source and none, is two observations.
import { describe, expect, it } from 'vitest';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, closedUnit, condition, decideById, makeView, note } from './build-view.js';

type View = ReturnType<typeof makeView>;
const V = (name: string, view: View, id: string) => at(decideById(condition(name), view), id);

/** Removed by rung 0 or rung 1 (a ladder's predictor may still remove what they leave: that is rung 4's call). */
const byRung01 = (d: Eligibility) =>
  d.verdict === 'eligible' && (d.rule === 'exact-redundancy' || d.rule === 'source-identity');

const LADDERS = ['ladder-0-1', 'ladder-0-3', 'ladder-0-4'];

/** Every condition whose rung 1 decides: the gated mechanism and the ladders that run it. */
const RUNG1 = ['source-identity', ...LADDERS];

/** Every condition whose rung 0 decides. */
const RUNG0 = ['exact-redundancy', 'ladder-0', ...LADDERS];

/** Refused by a condition: ladder-0-4 may still remove on prediction, never on rung 0 or 1. */
function refused(name: string, view: View, id: string): void {
  const d = V(name, view, id);
  if (name === 'ladder-0-4') expect(byRung01(d), `${name}: ${d.rule} ${d.reason}`).toBe(false);
  else expect(d.verdict, `${name}: ${d.reason}`).not.toBe('eligible');
}

/** Removed by rung 1 on the read `survivor`, which stays. */
function pairs(d: Eligibility, survivor: string): void {
  expect(d, d.reason).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
  expect(d.reason).toContain(`as does ${survivor},`);
}

/** A write to the config file at `turn` whose effect on the source is recorded as succeeded. */
function editConfig(turn: number): ItemSpec[] {
  return callAndResult(
    'w',
    turn,
    'edit',
    { path: 'app/config.json' },
    { content: 'ok' },
    { effects: [{ source: 'repo:app/config.json', outcome: 'succeeded' }] },
  );
}

const STUB = 'File unchanged since last read. The content from the earlier Read tool_result is still current.';
const CONFIG = '{"port": 8080, "retries": 3}';

describe('rung 1: the read that stays must show what the removed read showed', () => {
  // `hashes`: the label hashes the bytes read. Immutability, alone or with a commit, hashes nothing read (review G,
  // judgement 3): under it a read pairs only with a later one of the same bytes.
  const HASHED = [
    { name: 'content hash', version: { kind: 'content-hash', value: 'sha256:aa' }, mutable: true, hashes: true },
    { name: 'git blob', version: { kind: 'git-sha', value: 'b10b', of: 'blob' }, mutable: true, hashes: true },
    { name: 'an immutable source', version: 'UNKNOWN', mutable: false, hashes: false },
    {
      name: 'a commit of an immutable source',
      version: { kind: 'git-sha', value: 'c0ffee', of: 'commit' },
      mutable: false,
      hashes: false,
    },
  ] as const;
  interface State {
    readonly name: string;
    readonly version: unknown;
    readonly mutable: boolean;
    readonly hashes: boolean;
  }
  const src = (state: State) => ({ identity: 'repo:app/config.json', version: state.version, mutable: state.mutable });
  // Each read is its own call (an attempt number in its arguments), so rung 0 never pairs them: only rung 1 can.
  const read = (base: string, turn: number, state: State, content: string, extra: Record<string, unknown> = {}) =>
    callAndResult(
      base,
      turn,
      'read_file',
      { path: 'app/config.json', attempt: Number(base) },
      { content, source: src(state), ...extra },
    );
  const view = (...items: ItemSpec[][]) => makeView({ items: items.flat() });

  for (const state of HASHED) {
    describe(`under ${state.name}`, () => {
      for (const name of RUNG1) {
        it(`${name}: keeps a full read whose later twin is a stub carrying the same state`, () => {
          refused(name, view(read('1', 1, state, CONFIG), read('2', 2, state, STUB)), 'r1');
        });
        it(`${name}: keeps a read whose later twin shows only part of it, or all of its text but not its image`, () => {
          refused(name, view(read('1', 1, state, CONFIG), read('2', 2, state, '{"port": 8080')), 'r1');
          const png = { type: 'image', mediaType: 'image/png', sha256: 'a'.repeat(64) };
          const shot = view(
            read('1', 1, state, 'logo.png', { blocks: [{ type: 'text', text: 'logo.png' }, png] }),
            read('2', 2, state, 'logo.png (unchanged)'),
          );
          refused(name, shot, 'r1');
          const other = view(
            read('1', 1, state, 'logo.png', { blocks: [{ type: 'text', text: 'logo.png' }, png] }),
            read('2', 2, state, 'logo.png', {
              blocks: [
                { type: 'text', text: 'logo.png' },
                { ...png, sha256: 'b'.repeat(64) },
              ],
            }),
          );
          refused(name, other, 'r1');
        });
        it(`${name}: keeps a full read whose every later twin is a stub`, () => {
          const stubs = view(read('1', 1, state, CONFIG), read('2', 2, state, STUB), read('3', 3, state, STUB));
          refused(name, stubs, 'r1');
        });
        it(`${name}: still removes a read for a later one of the same bytes`, () => {
          pairs(V(name, view(read('1', 1, state, CONFIG), read('2', 2, state, CONFIG)), 'r1'), 'r2');
        });
        it(`${name}: ${state.hashes ? 'still removes' : 'keeps'} a read for a later one that holds its text and blocks whole`, () => {
          const framed = view(
            read('1', 1, state, CONFIG),
            read('2', 2, state, `app/config.json (42 bytes):\n${CONFIG}\n<system-reminder>read only</system-reminder>`),
          );
          const png = { type: 'image', mediaType: 'image/png', sha256: 'a'.repeat(64) };
          const shot = view(
            read('1', 1, state, 'logo.png', { blocks: [{ type: 'text', text: 'logo.png' }, png] }),
            read('2', 2, state, 'logo.png, 2 KB', { blocks: [{ type: 'text', text: 'logo.png, 2 KB' }, png] }),
          );
          for (const v of [framed, shot])
            if (state.hashes) expect(V(name, v, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
            else refused(name, v, 'r1');
        });
        it(`${name}: pairs a full read with a later full one when a stub follows both, and keeps that one`, () => {
          const v = view(read('1', 1, state, CONFIG), read('2', 2, state, CONFIG), read('3', 3, state, STUB));
          pairs(V(name, v, 'r1'), 'r2');
          refused(name, v, 'r2');
        });
      }
    });
  }

  it('says which read stays and why the stub is passed over, and why it abstains where none shows it', () => {
    const state = HASHED[0];
    const v = view(read('1', 1, state, CONFIG), read('2', 2, state, CONFIG), read('3', 3, state, STUB));
    expect(V('source-identity', v, 'r1').reason).toBe(
      'reads repo:app/config.json (read_file whole) at content hash sha256:aa, as does r2, the latest read of that view and state that shows all r1 shows (r3, later, does not), which stays',
    );
    const d = V('source-identity', v, 'r2');
    expect(d.verdict).toBe('abstain');
    expect(d.reason).toBe(
      "cannot establish that a read which stays shows what r2 shows: r3 reads repo:app/config.json (read_file whole) at content hash sha256:aa too, but what it shows does not hold r2's text and blocks whole (a stub, or another rendering of the state), and no read of that view and state between them does",
    );
    const framed = view(read('1', 1, state, CONFIG), read('2', 2, state, `config:\n${CONFIG}`));
    expect(V('source-identity', framed, 'r1').reason).toBe(
      "reads repo:app/config.json (read_file whole) at content hash sha256:aa, as does r2, the latest read of that view and state, which stays, its text and blocks whole within r2's",
    );
  });

  it('a write between the full read and the stub does not let the hash vouch for what the stub does not show', () => {
    const state = HASHED[0];
    const edit = editConfig(2);
    for (const name of ['source-identity', 'ladder-0-1'])
      refused(name, view(read('1', 1, state, CONFIG), edit, read('3', 3, state, STUB)), 'r1');
    // The other side: the same bytes across the write still pair (the hash is of the bytes read).
    expect(
      V('source-identity', view(read('1', 1, state, CONFIG), edit, read('3', 3, state, CONFIG)), 'r1'),
    ).toMatchObject({
      verdict: 'eligible',
      rule: 'source-identity',
    });
  });

  it('a pinned label before a write pairs only with a twin before the write that shows the read', () => {
    const etag: State = { name: 'etag', version: { kind: 'etag', value: 'W/"7"' }, mutable: true, hashes: false };
    const immutable = HASHED[2];
    for (const state of [etag, immutable]) {
      const edit = editConfig(3);
      // r2 is the last twin before the write, and a stub: r1 has no twin that shows it.
      const stub = view(read('1', 1, state, CONFIG), read('2', 2, state, STUB), edit, read('4', 4, state, CONFIG));
      refused('source-identity', stub, 'r1');
      const full = view(read('1', 1, state, CONFIG), read('2', 2, state, CONFIG), edit, read('4', 4, state, CONFIG));
      pairs(V('source-identity', full, 'r1'), 'r2');
    }
  });

  it('the stub itself may stay: nothing later shows its text either', () => {
    const state = HASHED[0];
    const v = view(read('1', 1, state, CONFIG), read('2', 2, state, STUB), read('3', 3, state, CONFIG));
    // r1 pairs with r3, which shows it; the stub r2 is not shown by r3 and stays, harmlessly.
    pairs(V('source-identity', v, 'r1'), 'r3');
    expect(V('source-identity', v, 'r2').verdict).toBe('abstain');
  });
});

describe('rung 0: one call text against two recorded sources is two observations', () => {
  const TOOLS = [{ name: 'read_file', sideEffect: 'read-mutable' }];
  const read = (base: string, turn: number, source: Record<string, unknown> | undefined, content = 'port: 8080') =>
    callAndResult(base, turn, 'read_file', { path: 'config.json' }, { content, ...(source ? { source } : {}) });
  const src = (identity: string, version: unknown = 'UNKNOWN') => ({ identity, version, mutable: true });
  const A = src('repo:svc-a/config.json');
  const B = src('repo:svc-b/config.json');
  const UNKNOWN = src('UNKNOWN');
  const pair = (first: Record<string, unknown> | undefined, second: Record<string, unknown> | undefined) =>
    makeView({ items: [...read('1', 1, first), note('n', 2, 'next'), ...read('3', 3, second)], tools: TOOLS });

  for (const name of RUNG0) {
    it(`${name}: two recorded sources are two observations, under any version`, () => {
      refused(name, pair(A, B), 'r1');
      const hash = { kind: 'content-hash', value: 'sha256:aa' };
      refused(name, pair(src('repo:svc-a/config.json', hash), src('repo:svc-b/config.json', hash)), 'r1');
    });
    it(`${name}: a recorded source and none (or UNKNOWN) are two observations, either way round`, () => {
      for (const [first, second] of [
        [A, undefined],
        [undefined, A],
        [A, UNKNOWN],
        [UNKNOWN, A],
      ] as const)
        refused(name, pair(first, second), 'r1');
    });
    it(`${name}: one source twice, or no recorded source on either, is still a copy`, () => {
      for (const [first, second] of [
        [A, A],
        [undefined, undefined],
        [UNKNOWN, UNKNOWN],
        [UNKNOWN, undefined],
        // The source's version is not part of rung 0's identity: one source at two labels is one observation.
        [src('repo:svc-a/config.json', { kind: 'etag', value: '"1"' }), A],
      ] as const)
        expect(V(name, pair(first, second), 'r1'), JSON.stringify([first, second])).toMatchObject({
          verdict: 'eligible',
          rule: 'exact-redundancy',
        });
    });
  }

  it('where repetition is declared irrelevant, other calls of one source are copies and of two sources are not', () => {
    const tools = [{ name: 'read_file', sideEffect: 'read-mutable', repetition: 'irrelevant' }];
    const two = (second: Record<string, unknown>) =>
      makeView({
        items: [
          ...callAndResult('1', 1, 'read_file', { path: 'config.json' }, { content: 'port: 8080', source: A }),
          ...callAndResult('2', 2, 'read_file', { path: './config.json' }, { content: 'port: 8080', source: second }),
        ],
        tools,
      });
    for (const name of ['exact-redundancy', 'ladder-0', 'ladder-0-1']) {
      refused(name, two(B), 'r1');
      expect(V(name, two(A), 'r1').verdict, name).toBe('eligible');
    }
  });

  it('names the recorded source in its reason, and no source where none is recorded', () => {
    expect(V('exact-redundancy', pair(A, A), 'r1').reason).toBe(
      'same call on recorded source repo:svc-a/config.json, status and every content block as r3, the latest copy, which stays',
    );
    expect(V('exact-redundancy', pair(undefined, undefined), 'r1').reason).toBe(
      'same call, status and every content block as r3, the latest copy, which stays',
    );
  });

  it('the gate leans on no copy from another source: a negative result read from svc-a stays beside svc-b', () => {
    // Rung 3 removes the trace of a closed unit; r1 in it is a negative result, which the gate lets go only while an
    // identical copy of the same observation stays (r3, outside the unit). r3 read svc-b, not svc-a.
    const view = (second: Record<string, unknown>) =>
      makeView({
        items: [
          ...read('1', 1, A, 'retries: not set').map((item) =>
            item.id === 'r1' ? { ...item, flags: { negativeResult: true } } : item,
          ),
          note('n2', 2, 'Done: kept the default retries'),
          ...read('3', 3, second, 'retries: not set'),
        ],
        tools: TOOLS,
        visible: { workUnits: [closedUnit('wu', ['c1', 'r1'], 'n2', ['kept the default retries'])] },
      });
    for (const name of ['verified-completion', 'ladder-0-3']) {
      const d = V(name, view(B), 'r1');
      expect(d.verdict, `${name}: ${d.reason}`).not.toBe('eligible');
      expect(d.reason, name).toContain('negative result, and no identical copy of it stays in context');
    }
    // The other side: the copy from the same source stays, so the gate lets r1 go.
    for (const name of ['verified-completion', 'ladder-0-3'])
      expect(V(name, view(A), 'r1').verdict, name).toBe('eligible');
  });
});

describe('review E as found: rung 1 removed a read for a later one of the same hashed state that shows other text', () => {
  // A runtime that answers a repeated read of an unchanged file with a stub pointing at the earlier result (Claude
  // Code's Read does) records the same hash for both: the read that stays then shows nothing of what went.
  const src = {
    identity: 'repo:app/config.json',
    version: { kind: 'content-hash', value: 'sha256:aa' },
    mutable: true,
  };
  const view = (second: string) =>
    makeView({
      items: [
        ...callAndResult('1', 1, 'read_file', { path: 'app/config.json' }, { content: '{"port": 8080}', source: src }),
        ...callAndResult('2', 2, 'read_file', { path: 'app/config.json' }, { content: second, source: src }),
      ],
    });
  for (const name of ['source-identity', 'ladder-0-1', 'ladder-0-3']) {
    it(`${name}: keeps r1, since r2 shows only a stub`, () => {
      expect(V(name, view('File unchanged since last read; refer to the earlier result.'), 'r1').verdict).not.toBe(
        'eligible',
      );
    });
    it(`${name}: the same bytes twice pair`, () => {
      expect(V(name, view('{"port": 8080}'), 'r1').verdict).toBe('eligible');
    });
  }
});

describe('review E as found: rung 0 ignored the recorded source, so one call text run against two sources was one observation', () => {
  // The same relative path read from two working directories: equal bytes, two recorded sources.
  const read = (base: string, turn: number, identity: string): ItemSpec[] =>
    callAndResult(
      base,
      turn,
      'read_file',
      { path: 'config.json' },
      { content: 'port: 8080', source: { identity, version: 'UNKNOWN', mutable: true } },
    );
  it('two sources are two observations', () => {
    const view = makeView({
      items: [...read('1', 1, 'repo:svc-a/config.json'), ...read('2', 2, 'repo:svc-b/config.json')],
    });
    expect(V('exact-redundancy', view, 'r1').verdict).not.toBe('eligible');
  });
  it('one source twice is a copy', () => {
    const view = makeView({
      items: [...read('1', 1, 'repo:svc-a/config.json'), ...read('2', 2, 'repo:svc-a/config.json')],
    });
    expect(V('exact-redundancy', view, 'r1').verdict).toBe('eligible');
  });
});
