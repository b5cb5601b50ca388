// Held-out review G's three open judgements (7 December), closed on the safe side: a rule acts only where its check
// ran and passed. (1) Another item holds a user record's text (or a consequence string) only where it says it whole
// and unqualified: the text closes its clause (the end of the text or of its line, or a sentence end or semicolon),
// so "use tabs unless ..." or "use tabs, except ..." holds nothing, and a diff holds nothing at all (`holdsAsUnit`).
// (2) Under declared-irrelevant repetition a negative result is a copy only of a result of the same call, at rung 0
// and in the gate's "an identical copy stays" exception (`observationKey`). (3) Immutability, alone or with a commit,
// hashes nothing read, so rung 1 pairs reads under it only where they show the same bytes (`stateOf`'s claim). Each
// with what the rule must refuse and what it must still allow, through the conditions that read it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { regenerabilityGate, holdsAsUnit } from '../../src/policy/regenerability.js';
import { exactRedundancy } from '../../src/policy/mechanisms/exact-redundancy.js';
import { sourceIdentity } from '../../src/policy/mechanisms/source-identity.js';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
import {
  GATED,
  at,
  callAndResult,
  closedUnit,
  condition,
  decideById,
  fixtureObject,
  makeView,
  note,
  result,
} from './build-view.js';

type View = ReturnType<typeof makeView>;
const V = (name: string, view: View, id: string): Eligibility => at(decideById(condition(name), view), id);

const LADDERS = ['ladder-0-1', 'ladder-0-3', 'ladder-0-4'];

/** Refused by a condition on the rule under test; ladder-0-4 and the guard may still remove on prediction. */
function refusedBy(name: string, d: Eligibility, rules: readonly string[]): void {
  if (name === 'ladder-0-4' || name === 'regenerability-guard')
    expect(d.verdict === 'eligible' && rules.includes(d.rule), `${name}: ${d.rule} ${d.reason}`).toBe(false);
  else expect(d.verdict, `${name}: ${d.reason}`).not.toBe('eligible');
}

describe('judgement 1: a restatement holds a user record only where nothing after it in its clause qualifies it', () => {
  const QUALIFIED = [
    'Style: use tabs unless the file already uses spaces',
    'Style: use tabs except in Makefiles',
    'Style: use tabs only in Go files',
    'Style: use tabs when the linter runs',
    'Style: use tabs, unless asked otherwise',
    'Style: use tabs, but not in YAML.',
    'Style: use tabs: only for new files',
    'The user said "use tabs" only for Go files',
    'Style: use tabs (not in YAML)',
    'Style: use tabs?',
    'Style: use tabs.go files only',
    // A line indented under the restatement continues it: a wrapped or nested qualification.
    'Rules:\n- use tabs\n  - except in Makefiles',
    'Rules:\n- use tabs\n  unless the file already uses spaces',
  ];
  const DIFFS = [
    // ndiff: the removed line opens like a bullet.
    'diff of CONTRIBUTING.md:\n- use tabs\n+ use spaces',
    // unified: an added line says what a patch writes, not that the constraint holds; context lines are file text.
    '--- a/CONTRIBUTING.md\n+++ b/CONTRIBUTING.md\n@@ -3,1 +3,1 @@\n-Style: use spaces\n+Style: use tabs',
    'diff --git a/CONTRIBUTING.md b/CONTRIBUTING.md\n@@ -1,2 +1,2 @@\n Style: use tabs\n-Indent: 4\n+Indent: 8',
    'patch:\n@@ -1 +1 @@\nStyle: use tabs\n',
  ];
  const NEGATED = ["Style: don't use tabs unless asked", 'Do not use tabs.', 'never use tabs, so use spaces'];
  const HELD = [
    'Style: use tabs.',
    'Style: use tabs',
    'Rules:\n- use tabs\n- no force-push',
    'Rules:\nuse tabs\nno force-push',
    'Remember: use tabs! Always.',
    'Rules: use tabs; no force-push.',
    'The user said "use tabs".',
    '(Note: use tabs.) Then deploy.',
    'Style: use tabs   \nDeploy next.',
    'Rules:\r\n- use tabs\r\n- no force-push',
    'Rules:\n- use tabs\n\n    indented code after a blank line',
    'Style: use tabs. Unless told otherwise, deploy at noon.',
  ];

  it('holdsAsUnit: a qualified restatement, a diff or a negation holds nothing; a closed one does', () => {
    for (const holder of [...QUALIFIED, ...DIFFS, ...NEGATED])
      expect(holdsAsUnit(holder, 'use tabs'), JSON.stringify(holder)).toBe(false);
    for (const holder of HELD) expect(holdsAsUnit(holder, 'use tabs'), JSON.stringify(holder)).toBe(true);
  });

  it('a record whose text ends its own clause is held where the text is followed by more sentences', () => {
    expect(holdsAsUnit('Rule: Use tabs. Always.', 'Use tabs.')).toBe(true);
    expect(holdsAsUnit('Rule: Use tabs.\nNext', 'Use tabs.')).toBe(true);
    expect(holdsAsUnit('Rule: Use tabs.go', 'Use tabs.')).toBe(false);
  });

  /** A user constraint and one note repeating it (relevant to the subgoal, so the predictor keeps the note). */
  const constraintView = (holder: string) =>
    makeView({
      items: [
        { id: 'u', turn: 1, kind: 'constraint', origin: 'user', content: 'use tabs' },
        note('n2', 2, `deploy server. ${holder}`),
        result('q3', 3, 'zzz unrelated listing'),
      ],
      subgoal: 'deploy the server',
    });
  /** The constraint inside a closed unit's trace, so rung 3 would remove it; a note outside repeats it. */
  const unitView = (holder: string) =>
    makeView({
      items: [
        { id: 'u', turn: 1, kind: 'constraint', origin: 'user', content: 'use tabs' },
        note('n2', 2, holder),
        note('rec', 3, 'Done: formatter configured'),
      ],
      visible: { workUnits: [closedUnit('wu', ['u'], 'rec', ['formatter configured'])] },
    });

  it('the gate keeps the constraint whose only other holder qualifies it or is a diff, on every path', () => {
    for (const holder of [...QUALIFIED, ...DIFFS]) {
      expect(regenerabilityGate(constraintView(holder), ['u']).get('u'), holder).toContain(
        'sole record of a user constraint',
      );
      expect(V('ladder-0-4', constraintView(holder), 'u').verdict, holder).not.toBe('eligible');
      for (const name of ['verified-completion', 'ladder-0-3', 'ladder-0-4'])
        expect(V(name, unitView(holder), 'u').verdict, `${name}: ${holder}`).not.toBe('eligible');
    }
  });

  it('allowed: a closed restatement still lets the constraint go, by prediction or with its unit', () => {
    for (const holder of HELD) {
      expect(regenerabilityGate(constraintView(holder), ['u']).has('u'), holder).toBe(false);
      expect(V('ladder-0-4', constraintView(holder), 'u').verdict, holder).toBe('eligible');
      for (const name of ['verified-completion', 'ladder-0-3'])
        expect(V(name, unitView(holder), 'u').verdict, `${name}: ${holder}`).toBe('eligible');
    }
    for (const holder of NEGATED) expect(V('ladder-0-4', constraintView(holder), 'u').verdict).not.toBe('eligible');
  });

  it("a work unit's consequence record stays while its string is held only qualified or in a diff", () => {
    const view = (holder: string) =>
      makeView({
        items: [note('rec', 1, 'Done: retry_backoff passed'), note('n2', 2, holder)],
        visible: { workUnits: [closedUnit('wu', [], 'rec', ['retry_backoff passed'])] },
      });
    for (const holder of [
      'Summary: retry_backoff passed only on Linux',
      'Summary: retry_backoff passed, except the flaky case',
      '- retry_backoff failed\n+ retry_backoff passed',
    ])
      expect(regenerabilityGate(view(holder), ['rec']).get('rec'), holder).toContain('consequence record');
    for (const holder of ['Summary: retry_backoff passed.', 'Results:\n- retry_backoff passed\n- lint clean'])
      expect(regenerabilityGate(view(holder), ['rec']).has('rec'), holder).toBe(false);
  });

  const word = fc.stringMatching(/^[a-z]{1,8}$/);
  const text = fc.array(word, { minLength: 1, maxLength: 4 }).map((ws) => ws.join(' '));
  const opener = fc.constantFrom('', 'Style: ', '- ', 'Done. ', 'A\n', '"', '* ');

  it('property: any word after the text in its clause (after a space, comma, colon, quote or bracket) unholds it', () => {
    const joint = fc.constantFrom(' ', ', ', ': ', '" ', ') ', ' - ', '? ', '\t', ',', '\n  ', '\n\t');
    fc.assert(
      fc.property(opener, text, joint, word, (open, t, j, w) => {
        // Only the one restatement: a word that repeats the text ("v? v") is a second restatement, which ends its clause.
        const whole = `${open}${t}${j}${w}`;
        fc.pre(whole.indexOf(t) === whole.lastIndexOf(t));
        expect(holdsAsUnit(whole, t)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('property: a restatement that ends its clause holds, whatever sentences or lines follow', () => {
    const end = fc.constantFrom('.', '!', ';', '."', '.)', '!)', '');
    const rest = fc.constantFrom('', ' More words follow.', '\nnext line', '\n- next bullet', '\n\n  indented');
    fc.assert(
      fc.property(opener, text, end, rest, (open, t, e, r) => {
        // With no punctuation only a line end closes the clause: a sentence on the same line would go on it.
        fc.pre(e !== '' || !r.startsWith(' '));
        expect(holdsAsUnit(`${open}${t}${e}${r}`, t)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('property: a diff holds nothing, whichever of its lines repeats the text', () => {
    const line = fc.constantFrom('- ', '+ ', '-', '+', ' ', '  ', 'Style: ', '+Style: ', '-Style: ');
    const header = fc.constantFrom('', 'diff of README:\n', '--- a/x\n+++ b/x\n', '@@ -1,3 +1,3 @@\n');
    fc.assert(
      fc.property(header, line, text, word, (h, l, t, w) => {
        expect(holdsAsUnit(`${h}${l}${t}.\n-${w}\n+${w}s`, t)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('judgement 2: a negative result under declared-irrelevant repetition is a copy only of the same call', () => {
  const grep = (pattern: string, base: string, turn: number, negative = true, content = 'No matches found') =>
    callAndResult(
      base,
      turn,
      'grep',
      { pattern },
      { content, ...(negative ? { flags: { negativeResult: true } } : {}) },
    );
  const tools = [{ name: 'grep', sideEffect: 'pure', repetition: 'irrelevant' }];
  const view = (...items: ItemSpec[][]) => makeView({ items: items.flat(), tools });
  const RUNG0 = ['exact-redundancy', 'ladder-0', ...LADDERS];

  it('keeps the negative result for "foo" when only another query\'s equal output stays, at rung 0 and in the gate', () => {
    const v = view(grep('foo', '1', 1), grep('bar', '2', 2));
    for (const name of [...RUNG0, ...GATED]) refusedBy(name, V(name, v, 'r1'), ['exact-redundancy']);
    expect(regenerabilityGate(v, ['r1']).get('r1')).toContain('negative result');
    // Declared by the fixture rather than the tool: the same.
    const byFixture = buildView(
      Fixture.parse({
        ...fixtureObject({ items: [...grep('foo', '1', 1), ...grep('bar', '2', 2)] }),
        repetition: 'irrelevant',
      }),
      'pp',
      (t) => t.length,
    );
    expect(V('exact-redundancy', byFixture, 'r1').verdict).not.toBe('eligible');
    expect(regenerabilityGate(byFixture, ['r1']).get('r1')).toContain('negative result');
  });

  it('keeps a negative result beside an equal non-negative result of another call, and of the same call', () => {
    for (const other of [grep('bar', '2', 2, false), grep('foo', '2', 2, false)]) {
      const v = view(grep('foo', '1', 1), other);
      expect(V('exact-redundancy', v, 'r1').verdict).not.toBe('eligible');
      expect(regenerabilityGate(v, ['r1']).get('r1')).toContain('negative result');
    }
  });

  it('allowed: a repeat of the same query still goes for its later copy, alone, in the ladders and through the gate', () => {
    const v = view(grep('foo', '1', 1), grep('bar', '2', 2), grep('foo', '3', 3));
    for (const name of RUNG0) {
      const d = V(name, v, 'r1');
      expect(d, name).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(d.reason).toContain('r3');
    }
    expect(regenerabilityGate(v, ['r1']).has('r1')).toBe(false);
  });

  it('says why a negative result pairs only within its call', () => {
    const v = view(grep('foo', '1', 1), grep('foo', '2', 2));
    expect(V('exact-redundancy', v, 'r1').reason).toBe(
      'same call, status and every content block (a negative result: its meaning is its query, so only the same call repeats it) as r2, the latest copy, which stays',
    );
  });

  it('allowed: non-negative results of different calls with the declaration still go', () => {
    const v = view(grep('foo', '1', 1, false, 'a.ts:3: x'), grep('bar', '2', 2, false, 'a.ts:3: x'));
    for (const name of RUNG0) {
      const d = V(name, v, 'r1');
      expect(d, name).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(d.reason).toContain('declares repetition irrelevant');
    }
  });

  it('property: under the declaration a removed negative result leans only on results of its own call', () => {
    const step = fc.record({
      pattern: fc.constantFrom('foo', 'bar', 'baz'),
      negative: fc.boolean(),
      content: fc.constantFrom('No matches found', 'a.ts:1: foo'),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 2, maxLength: 7 }), (steps) => {
        const v = view(...steps.map((s, i) => grep(s.pattern, String(i + 1), i + 1, s.negative, s.content)));
        const byId = new Map(v.items.map((i) => [i.id, i]));
        const ofCall = (s: (typeof steps)[number], o: (typeof steps)[number]) =>
          o.pattern === s.pattern && o.content === s.content && o.negative === s.negative;
        // The mechanism names the copy each removal leans on.
        for (const f of exactRedundancy().assess(v, [...byId.keys()])) {
          const s = steps[Number(f.itemId.slice(1)) - 1]!;
          for (const id of f.reliesOn ?? []) {
            const copy = byId.get(id)!;
            expect(copy.content).toBe(s.content);
            if (s.negative) expect(copy.tool?.arguments, `${f.itemId} on ${id}`).toEqual({ pattern: s.pattern });
          }
        }
        for (const name of RUNG0) {
          const decided = decideById(condition(name), v);
          steps.forEach((s, i) => {
            const d = at(decided, `r${i + 1}`);
            // A negative result goes at rung 0 only beside another result of its own call with its output.
            if (s.negative && d.verdict === 'eligible' && d.rule === 'exact-redundancy')
              expect(
                steps.some((o, j) => j !== i && ofCall(s, o)),
                `${name}: r${i + 1}`,
              ).toBe(true);
            // The latest of a run of the same query with the same output and flag stays; every earlier one goes.
            if (steps.some((o, j) => j > i && ofCall(s, o))) expect(d.verdict, `${name}: r${i + 1}`).toBe('eligible');
          });
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('judgement 3: rung 1 pairs reads of an immutable source only on the same bytes', () => {
  const STATES = [
    { name: 'an immutable source', version: 'UNKNOWN' },
    { name: 'a commit of an immutable source', version: { kind: 'git-sha', value: 'c0ffee', of: 'commit' } },
  ] as const;
  const HASHED = [
    { name: 'a content hash', version: { kind: 'content-hash', value: 'sha256:aa' } },
    { name: 'a git blob', version: { kind: 'git-sha', value: 'b10b', of: 'blob' } },
  ] as const;
  const RUNG1 = ['source-identity', ...LADDERS];
  const STUB = 'File unchanged since last read.';
  // Each read is its own call (an attempt number in its arguments), so rung 0 never pairs them: only rung 1 can.
  const read = (base: string, turn: number, version: unknown, content: string, mutable = false) =>
    callAndResult(
      base,
      turn,
      'read_file',
      { path: 'VERSION', attempt: Number(base) },
      { content, source: { identity: 'pkg:lib@1.0.0/VERSION', version, mutable } },
    );
  const view = (...items: ItemSpec[][]) => makeView({ items: items.flat() });

  for (const state of STATES)
    describe(`under ${state.name}`, () => {
      it('keeps a read whose later twin shows other bytes that contain it, inside a longer token or framed', () => {
        for (const later of ['version = 12', 'VERSION (1 line):\nversion = 1\n', 'version = 1\n']) {
          const v = view(read('1', 1, state.version, 'version = 1'), read('2', 2, state.version, later));
          for (const name of RUNG1) refusedBy(name, V(name, v, 'r1'), ['source-identity']);
          expect(V('source-identity', v, 'r1').reason).toContain('hashes nothing read, and what they show differs');
        }
      });
      it('allowed: equal bytes pair, and a later stub leaves the equal read to stay', () => {
        const equal = view(read('1', 1, state.version, 'version = 1'), read('2', 2, state.version, 'version = 1'));
        for (const name of RUNG1)
          expect(V(name, equal, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
        const stubbed = view(
          read('1', 1, state.version, 'version = 1'),
          read('2', 2, state.version, 'version = 1'),
          read('3', 3, state.version, STUB),
        );
        const d = V('source-identity', stubbed, 'r1');
        expect(d).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
        expect(d.reason).toContain('as does r2,');
        expect(V('source-identity', stubbed, 'r2').verdict).not.toBe('eligible');
      });
      it('says which read of the same bytes stays and why the later one is passed over', () => {
        const stubbed = view(
          read('1', 1, state.version, 'version = 1'),
          read('2', 2, state.version, 'version = 1'),
          read('3', 3, state.version, STUB),
        );
        expect(V('source-identity', stubbed, 'r1').reason).toMatch(
          /as does r2, the latest read of that view and state that shows the same bytes \(r3, later, does not; .* hashes nothing read\), which stays$/,
        );
      });
    });

  for (const state of HASHED)
    it(`allowed: under ${state.name} a later rendering that holds the read whole still pairs`, () => {
      const v = view(
        read('1', 1, state.version, 'version = 1', true),
        read('2', 2, state.version, 'VERSION (1 line):\nversion = 1\n', true),
      );
      for (const name of RUNG1)
        expect(V(name, v, 'r1'), name).toMatchObject({ verdict: 'eligible', rule: 'source-identity' });
    });

  it('property: under immutability a read goes at rung 1 only for a later read of the same bytes, which stays', () => {
    const content = fc.constantFrom('version = 1', 'version = 12', 'v: version = 1\n', STUB);
    const version = fc.constantFrom(...STATES.map((s) => s.version));
    fc.assert(
      fc.property(version, fc.array(content, { minLength: 2, maxLength: 6 }), (ver, contents) => {
        const v = view(...contents.map((c, i) => read(String(i + 1), i + 1, ver, c)));
        const byId = new Map(v.items.map((i) => [i.id, i]));
        // The mechanism names the read that stays: a later one of the same bytes.
        for (const f of sourceIdentity().assess(v, [...byId.keys()])) {
          if (f.outcome !== 'eligible') continue;
          expect(f.reliesOn).toHaveLength(1);
          const survivor = byId.get(f.reliesOn![0]!)!;
          expect(survivor.content, f.itemId).toBe(byId.get(f.itemId)!.content);
          expect(v.items.indexOf(survivor)).toBeGreaterThan(v.items.indexOf(byId.get(f.itemId)!));
        }
        for (const name of RUNG1) {
          const decided = decideById(condition(name), v);
          contents.forEach((c, i) => {
            const d = at(decided, `r${i + 1}`);
            const later = contents.slice(i + 1).includes(c);
            if (d.verdict === 'eligible' && d.rule === 'source-identity')
              expect(later, `${name}: r${i + 1}`).toBe(true);
            // Where a later read shows the same bytes, rung 1 finds it (alone: a ladder's earlier rung may act first).
            if (name === 'source-identity' && later) expect(d.verdict, `r${i + 1}`).toBe('eligible');
          });
        }
      }),
      { numRuns: 150 },
    );
  });
});
