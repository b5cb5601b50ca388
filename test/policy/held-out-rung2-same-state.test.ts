// Rung 2 and the same recorded state: a newer observation supersedes an older one because what the older showed no
// longer holds. Where both record the same state of the source (the same content hash, git blob, etag, agent-writes
// count, an immutable source or a commit of one; rung 1's notion of an established state), nothing changed what the
// older showed, so the newer replaces it only where it shows all the older showed (`showsAllOf`): a runtime's "File
// unchanged since last read" stub, or a partial rendering, recorded with the state's label after a write that left
// the bytes as they were, is no replacement. A newer observation of a changed state (another label), or one whose
// label records no state of it (UNKNOWN, a commit of a mutable working tree), supersedes as before. Held alone, behind
// the gate, and through the ladders that run rung 2.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedSupersession } from '../../src/policy/mechanisms/checked-supersession.js';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
import { at, callAndResult, condition, decideById, makeView } from './build-view.js';

type View = ReturnType<typeof makeView>;
const V = (name: string, view: View, id: string) => at(decideById(condition(name), view), id);

/** Every condition whose rung 2 decides: the gated single and the ladders that run it. */
const RUNG2 = ['checked-supersession', 'ladder-0-2', 'ladder-0-3', 'ladder-0-4'];

const EVIDENCE = new Set([
  'exact-redundancy',
  'source-identity',
  'errored-input-residue',
  'checked-supersession',
  'verified-completion',
]);

/** Refused by a condition: ladder-0-4 may still remove on prediction, never on rungs 0-3. */
function refused(name: string, view: View, id: string): void {
  const d = V(name, view, id);
  if (name === 'ladder-0-4')
    expect(d.verdict === 'eligible' && EVIDENCE.has(d.rule ?? ''), `${name}: ${d.rule} ${d.reason}`).toBe(false);
  else expect(d.verdict, `${name}: ${d.reason}`).not.toBe('eligible');
}

/** The mechanism's own finding on an item, every item a candidate. */
function finding(view: View, id: string) {
  return checkedSupersession()
    .assess(
      view,
      view.items.map((i) => i.id),
    )
    .find((f) => f.itemId === id);
}

/** Removed by rung 2 on the newer observation `newer`. */
function supersededBy(d: Eligibility, newer: string): void {
  expect(d, d.reason).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
  expect(d.reason).toContain(`superseded by ${newer}:`);
}

const FILE = 'repo:app/config.json';
const STUB = 'File unchanged since last read. The content from the earlier Read tool_result is still current.';
const CONFIG = '{"port": 8080, "retries": 3}';
const PNG = { type: 'image', mediaType: 'image/png', sha256: 'a'.repeat(64) };

interface State {
  readonly name: string;
  readonly version: unknown;
  readonly mutable: boolean;
}

/** Every label that establishes a state of the source (rung 1's `hashes` and `pins`). */
const ESTABLISHED: readonly State[] = [
  { name: 'a content hash', version: { kind: 'content-hash', value: 'sha256:aa' }, mutable: true },
  { name: 'a git blob', version: { kind: 'git-sha', value: 'b10b', of: 'blob' }, mutable: true },
  { name: 'an etag', version: { kind: 'etag', value: 'W/"7"' }, mutable: true },
  { name: 'an agent-writes count', version: { kind: 'agent-writes', value: '1' }, mutable: true },
  { name: 'an immutable source', version: 'UNKNOWN', mutable: false },
  {
    name: 'a commit of an immutable source',
    version: { kind: 'git-sha', value: 'c0ffee', of: 'commit' },
    mutable: false,
  },
];

const src = (state: State) => ({
  identity: FILE,
  version: state.version,
  mutable: state.mutable,
  selector: { kind: 'whole' },
});
// One call throughout (rung 2 compares observations of one call); only the bytes differ, so rung 0 never pairs them.
const read = (base: string, turn: number, state: State, content: string, extra: Record<string, unknown> = {}) =>
  callAndResult(base, turn, 'read_file', { path: 'app/config.json' }, { content, source: src(state), ...extra });
/** A write that succeeded on the file (it may have left its bytes as they were: the labels say which). */
const write = (base: string, turn: number): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'edit',
    { path: 'app/config.json', n: Number(base) },
    { content: 'edited' },
    { effects: [{ source: FILE, outcome: 'succeeded' }] },
  );
const view = (...items: ItemSpec[][]) => makeView({ items: items.flat() });

describe('rung 2: a newer observation of the same recorded state supersedes only where it shows all the older showed', () => {
  for (const state of ESTABLISHED) {
    describe(`under ${state.name}`, () => {
      const stub = view(read('1', 1, state, CONFIG), write('2', 2), read('3', 3, state, STUB));
      const partial = view(read('1', 1, state, CONFIG), write('2', 2), read('3', 3, state, '{"port": 8080'));
      const image = view(
        read('1', 1, state, 'logo.png', { blocks: [{ type: 'text', text: 'logo.png' }, PNG] }),
        write('2', 2),
        read('3', 3, state, 'logo.png (unchanged)'),
      );
      const stubs = view(
        read('1', 1, state, CONFIG),
        write('2', 2),
        read('3', 3, state, STUB),
        read('4', 4, state, STUB),
      );

      it('the mechanism finds nothing replaced a full read by a later stub, partial rendering or image-less one', () => {
        for (const v of [stub, partial, image, stubs]) {
          const f = finding(v, 'r1');
          expect(f?.outcome, f?.reason).not.toBe('eligible');
        }
      });

      for (const name of RUNG2) {
        it(`${name}: keeps a full read whose newer observation of the same state is a stub`, () => {
          refused(name, stub, 'r1');
          refused(name, stubs, 'r1');
        });
        it(`${name}: keeps a full read whose newer observation of the same state shows only part of it`, () => {
          refused(name, partial, 'r1');
          refused(name, image, 'r1');
        });
      }

      it('still supersedes on a newer observation of the same state that shows the same bytes', () => {
        const same = view(read('1', 1, state, CONFIG), write('2', 2), read('3', 3, state, CONFIG));
        supersededBy(V('checked-supersession', same, 'r1'), 'r3');
        for (const name of RUNG2) expect(V(name, same, 'r1').verdict, name).toBe('eligible');
      });

      it('still supersedes on a newer observation of the same state that holds the older whole', () => {
        const framed = view(
          read('1', 1, state, CONFIG),
          write('2', 2),
          read('3', 3, state, `app/config.json (29 bytes):\n${CONFIG}\n<system-reminder>read only</system-reminder>`),
        );
        supersededBy(V('checked-supersession', framed, 'r1'), 'r3');
        const shot = view(
          read('1', 1, state, 'logo.png', { blocks: [{ type: 'text', text: 'logo.png' }, PNG] }),
          write('2', 2),
          read('3', 3, state, 'logo.png, 2 KB', { blocks: [{ type: 'text', text: 'logo.png, 2 KB' }, PNG] }),
        );
        supersededBy(V('checked-supersession', shot, 'r1'), 'r3');
        for (const name of RUNG2) {
          expect(V(name, framed, 'r1').verdict, name).toBe('eligible');
          expect(V(name, shot, 'r1').verdict, name).toBe('eligible');
        }
      });

      it('supersedes on the latest newer observation that shows it when a stub follows, and keeps that one', () => {
        const v = view(
          read('1', 1, state, CONFIG),
          write('2', 2),
          read('3', 3, state, `config:\n${CONFIG}`),
          read('4', 4, state, STUB),
        );
        supersededBy(V('checked-supersession', v, 'r1'), 'r3');
        expect(finding(v, 'r1')?.reliesOn).toEqual(['r3']);
        refused('checked-supersession', v, 'r3');
      });
    });
  }

  const hash = (value: string): State => ({ name: value, version: { kind: 'content-hash', value }, mutable: true });

  it('a newer observation of a changed state supersedes as before, whatever it shows of the older', () => {
    for (const newer of ['{"port": 9090, "retries": 3}', '{"port": 9090}', STUB]) {
      const v = view(read('1', 1, hash('sha256:aa'), CONFIG), write('2', 2), read('3', 3, hash('sha256:bb'), newer));
      for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3']) {
        const d = V(name, v, 'r1');
        expect(d, `${name}: ${newer}`).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
      }
    }
  });

  it('a label that records no state of the source (UNKNOWN, a commit of a mutable tree) supersedes as before', () => {
    const unknown: State = { name: 'UNKNOWN', version: 'UNKNOWN', mutable: true };
    const commit: State = { name: 'commit', version: { kind: 'git-sha', value: 'c0ffee' }, mutable: true };
    for (const state of [unknown, commit]) {
      const v = view(read('1', 1, state, CONFIG), write('2', 2), read('3', 3, state, '{"port": 9090}'));
      supersededBy(V('checked-supersession', v, 'r1'), 'r3');
      expect(V('ladder-0-2', v, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
    }
  });

  it('with no write between them, a stub of the same state was never a supersession (held as it was)', () => {
    for (const state of ESTABLISHED) {
      const v = view(read('1', 1, state, CONFIG), read('2', 2, state, STUB));
      for (const name of RUNG2) refused(name, v, 'r1');
    }
  });

  it('says why it abstains on the same state, and why it removes where the newer shows all of it', () => {
    const state = ESTABLISHED[0]!;
    const d = V(
      'checked-supersession',
      view(read('1', 1, state, CONFIG), write('2', 2), read('3', 3, state, STUB)),
      'r1',
    );
    expect(d.verdict).toBe('abstain');
    expect(d.reason).toBe(
      `nothing replaced what r1 shows: r3 records ${FILE} at content hash sha256:aa too, the state r1 recorded, so c2 between them changed nothing it shows, and what r3 shows does not hold r1's text and blocks whole (a stub, or another rendering of the state)`,
    );
    const framed = view(read('1', 1, state, CONFIG), write('2', 2), read('3', 3, state, `config:\n${CONFIG}`));
    expect(V('checked-supersession', framed, 'r1').reason).toBe(
      `superseded by r3: same tool on ${FILE}, its view (read_file whole) contains r1's (read_file whole), and c2 between them, each effect recorded as succeeded, left ${FILE} at content hash sha256:aa, the state r1 recorded, and r3 shows all r1 shows`,
    );
  });
});

describe('rung 2: test runs under the rule', () => {
  const ws = 'workspace:payments';
  const run = (base: string, turn: number, content: string, covers: string[], version: unknown = 'UNKNOWN') =>
    callAndResult(
      base,
      turn,
      'run_tests',
      { suite: 'unit' },
      { content, covers, source: { identity: ws, version, mutable: true } },
    );
  const edit = (base: string, turn: number) =>
    callAndResult(base, turn, 'edit', { path: 'src/pool.ts' }, { content: 'edited' }, { effects: [ws] });

  it('a failed run is still superseded by a newer run covering its keys after an edit (no recorded state, or a changed one)', () => {
    const unknown = view(run('1', 1, '2 failed', ['t1', 't2']), edit('2', 2), run('3', 3, 'all passed', ['t1', 't2']));
    supersededBy(V('checked-supersession', unknown, 'r1'), 'r3');
    const changed = view(
      run('1', 1, '2 failed', ['t1', 't2'], { kind: 'content-hash', value: 'w1' }),
      edit('2', 2),
      run('3', 3, 'all passed', ['t1', 't2'], { kind: 'content-hash', value: 'w2' }),
    );
    supersededBy(V('checked-supersession', changed, 'r1'), 'r3');
    for (const name of ['ladder-0-2', 'ladder-0-3']) {
      expect(V(name, unknown, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
      expect(V(name, changed, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
    }
  });

  it('a failed run is not superseded by a newer run of the same recorded workspace state that shows other output', () => {
    const same = { kind: 'content-hash', value: 'w1' };
    const v = view(
      run('1', 1, '2 failed: t1 timeout', ['t1', 't2'], same),
      edit('2', 2),
      run('3', 3, 'all passed', ['t1', 't2'], same),
    );
    for (const name of RUNG2) refused(name, v, 'r1');
  });
});

describe('rung 2 property: the newer observation it rests on shows all the older showed wherever both record one state', () => {
  const LABELS = [
    { version: { kind: 'content-hash', value: 'h1' }, mutable: true },
    { version: { kind: 'content-hash', value: 'h2' }, mutable: true },
    { version: { kind: 'etag', value: 'e1' }, mutable: true },
    { version: { kind: 'git-sha', value: 'c1' }, mutable: true },
    { version: 'UNKNOWN', mutable: true },
    { version: 'UNKNOWN', mutable: false },
  ] as const;
  const TEXTS = [CONFIG, STUB, '{"port": 8080', `config:\n${CONFIG}`, '{"port": 9090}'];
  const entry = fc.oneof(
    fc.record({ write: fc.constant(true as const) }),
    fc.record({ label: fc.nat(LABELS.length - 1), text: fc.nat(TEXTS.length - 1) }),
  );

  /** Rung 1's established state, stated independently: a hash, a pin, an immutable source; not UNKNOWN nor a mutable commit. */
  const stateKey = (l: (typeof LABELS)[number]) =>
    l.version === 'UNKNOWN'
      ? l.mutable
        ? undefined
        : 'immutable'
      : l.version.kind === 'git-sha' && l.mutable
        ? undefined
        : JSON.stringify(l.version);

  it('never removes an older observation on a newer one of its state that does not show it', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 2, maxLength: 7 }), (entries) => {
        const labelOf = new Map<string, (typeof LABELS)[number]>();
        const items = entries.map((e, i) => {
          if ('write' in e) return write(String(i), i);
          const label = LABELS[e.label]!;
          labelOf.set(`r${i}`, label);
          return callAndResult(
            String(i),
            i,
            'read_file',
            { path: 'app/config.json' },
            {
              content: TEXTS[e.text]!,
              source: { identity: FILE, version: label.version, mutable: label.mutable, selector: { kind: 'whole' } },
            },
          );
        });
        const v = view(...items);
        const byId = new Map(v.items.map((i) => [i.id, i]));
        for (const f of checkedSupersession().assess(
          v,
          v.items.map((i) => i.id),
        )) {
          if (f.outcome !== 'eligible') continue;
          const newer = f.reliesOn![0]!;
          const key = stateKey(labelOf.get(f.itemId)!);
          if (key === undefined || key !== stateKey(labelOf.get(newer)!)) continue;
          expect(byId.get(newer)!.content, `${f.itemId} on ${newer}`).toContain(byId.get(f.itemId)!.content);
        }
      }),
      { numRuns: 300 },
    );
  });
});
