// Rules a held-out review found applied in part (7 December), each held with the case it must refuse and the case it
// must still allow: rule 7 for an item gated on its own whose text a residue repeats; a step that removes both an
// older observation and the newer one it rests on; rung 1 over truncated reads; and one line view written two ways.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import { conservativeRules } from '../../src/policy/conservative.js';
import { splitByGate } from '../../src/policy/eligibility.js';
import { visibleIds } from '../../src/policy/protection.js';
import { fixtureArb, toFixture } from '../support/arbitrary.js';
import type { Predictor } from '../../src/policy/mechanisms/predictive-semantic.js';
import { lexicalPredictor } from '../../src/policy/mechanisms/predictive-semantic.js';
import { conditionsWith } from '../../src/policy/registry.js';
import { regenerabilityGate } from '../../src/policy/regenerability.js';
import { shownItems } from '../../src/providers/predictor.js';
import {
  at,
  callAndResult,
  closedUnit,
  condition,
  decideById,
  makeView,
  note,
  obligation,
  result,
} from './build-view.js';

/** What each predictor-consuming ladder and the guard show the predictor for a view. */
function shownBy(view: ReturnType<typeof makeView>): Record<string, string[]> {
  let shown: string[] = [];
  const lexical = lexicalPredictor();
  const spy: Predictor = (v, ids, scope) => {
    shown.push(...ids);
    return lexical(v, ids, scope);
  };
  const out: Record<string, string[]> = {};
  for (const c of conditionsWith({ predictor: spy, label: 'spy' }).filter((c) =>
    ['ladder-0-3', 'ladder-0-4', 'regenerability-guard'].includes(c.name),
  )) {
    shown = [];
    c.decide(view);
    out[c.name] = [...new Set(shown)].sort();
  }
  out.model = shownItems(view, 'ladder')
    .map((i) => i.id)
    .sort();
  return out;
}

describe('rule 7: a ladder never shows its predictor an item gated on its own, whatever a residue repeats', () => {
  // The failed push's residue keeps the hook's message, which repeats the user's constraint word for word: in the
  // context after the cut the constraint seems held elsewhere, but the gate refuses it on the whole context.
  const view = (message: string) =>
    makeView({
      items: [
        { id: 'u', turn: 1, kind: 'constraint', origin: 'user', content: 'never push to main' },
        note('n2', 2, 'Plan: push the hotfix branch'),
        ...callAndResult(
          '3',
          3,
          'git_push',
          { branch: 'main' },
          {
            content: 'error: failed to push some refs to origin',
            status: { state: 'error', errorType: 'HookDeclined', message, fields: { exitCode: '1' } },
          },
        ),
        result('q4', 4, 'unrelated listing of files'),
      ],
      subgoal: 'open the pull request for the hotfix branch',
    });

  it('withholds the sole record even when the residue repeats its text, and still shows the rest', () => {
    const echoed = view('pre-receive hook declined: never push to main');
    expect(regenerabilityGate(echoed, ['u']).has('u')).toBe(true);
    expect(at(decideById(condition('ladder-0-4'), echoed), 'r3').verdict).toBe('eligible');
    const shown = shownBy(echoed);
    for (const ids of Object.values(shown)) expect(ids).not.toContain('u');
    expect(shown['ladder-0-4']).toEqual(['n2', 'q4']);
    expect(shown.model).toEqual(['n2', 'q4']);
    // Withheld, not leaned on: it is gated on its own, so its record is no earlier removal's.
    expect(at(decideById(condition('ladder-0-4'), echoed), 'u')).toMatchObject({ verdict: 'keep', rule: 'none' });
  });
});

describe('one step never removes an older observation and the newer one it rests on', () => {
  const ID = 'repo:app/config.yaml';
  const src = (v: string, sel?: unknown) => ({
    identity: ID,
    version: { kind: 'content-hash', value: v },
    mutable: true,
    ...(sel ? { selector: sel } : {}),
  });
  // Each edit's result differs: rung 0 would remove one as a copy of the other, and with it the record that its outcome
  // came before the next read was asked for (rung 2 then cannot order the edit between the reads).
  const edit = (id: string, turn: number) =>
    callAndResult(
      id,
      turn,
      'edit_file',
      { path: 'app/config.yaml' },
      { content: `ok (${id})` },
      {
        effects: [{ source: ID, outcome: 'succeeded' }],
      },
    );
  const head = { path: 'app/config.yaml', from: 1, to: 10 };
  const L = { kind: 'lines', from: 1, to: 10 };
  // r1 (lines 1-10) is superseded by the whole read r4, and r4 by the whole read r7; r1 against r7 is not checked
  // (lines 1-10 changed between r3 and r5 with no recorded transition), so r1 can go only while r4 stays.
  const chain = (drift: boolean) =>
    makeView({
      items: [
        ...callAndResult('1', 1, 'read_file', head, { content: 'port: 8080', source: src('a', L) }),
        ...edit('2', 2),
        ...callAndResult('3', 3, 'read_file', head, { content: 'port: 8081', source: src('b', L) }),
        ...callAndResult(
          '4',
          4,
          'read_file',
          { path: 'app/config.yaml' },
          { content: 'port: 8081\nrest', source: src('b') },
        ),
        ...callAndResult('5', 5, 'read_file', head, {
          content: drift ? 'port: 9999' : 'port: 8081',
          source: src(drift ? 'c' : 'b', L),
        }),
        ...edit('6', 6),
        ...callAndResult(
          '7',
          7,
          'read_file',
          { path: 'app/config.yaml' },
          { content: 'port: 9999\nrest2', source: src('d') },
        ),
      ],
    });

  for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3']) {
    it(`${name}: r1 goes resting on r4, so r4 stays`, () => {
      const d = decideById(condition(name), chain(true));
      expect(at(d, 'r1').verdict).toBe('eligible');
      expect(at(d, 'r1').reason).toContain('superseded by r4');
      expect(at(d, 'r4').verdict).toBe('keep');
      expect(at(d, 'r4').reason).toMatch(/r1's.* rests on it staying/);
    });
  }

  it('the newest still supersedes what it covers: r4 goes when nothing removed at the same step rests on it', () => {
    const d = decideById(condition('checked-supersession'), chain(false));
    // Without the drift r1 is checked against r7 itself, so nothing rests on r4 and both go.
    expect(at(d, 'r1').verdict).toBe('eligible');
    expect(at(d, 'r1').reason).toContain('superseded by r7');
    expect(at(d, 'r4').verdict).toBe('eligible');
  });
});

describe('rung 1: truncated reads are one view only where they show the same bytes', () => {
  const ID = 'repo:src/big_module.py';
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}: code_${i + 1}()`).join('\n');
  const src = {
    identity: ID,
    version: { kind: 'content-hash', value: 'sha256:9f2c' },
    mutable: true,
    selector: { kind: 'whole', truncated: true },
  };
  const reads = (first: number, second: number) =>
    makeView({
      items: [
        ...callAndResult(
          '1',
          1,
          'read_file',
          { path: 'src/big_module.py', max_lines: first },
          { content: `${lines(first)}\n[... truncated]`, source: src },
        ),
        ...callAndResult(
          '2',
          2,
          'read_file',
          { path: 'src/big_module.py', max_lines: second },
          { content: `${lines(second)}\n[... truncated]`, source: src },
        ),
      ],
      subgoal: 'fix code_120',
    });

  for (const name of ['source-identity', 'ladder-0-1', 'ladder-0-3']) {
    it(`${name}: lines 1-200 are not removed on the strength of lines 1-50; the same 50 lines twice are`, () => {
      const differ = at(decideById(condition(name), reads(200, 50)), 'r1');
      expect(differ.verdict).not.toBe('eligible');
      expect(at(decideById(condition(name), reads(50, 50)), 'r1').verdict).toBe('eligible');
    });
  }
  it('says why', () => {
    expect(at(decideById(condition('source-identity'), reads(200, 50)), 'r1').reason).toContain(
      'truncated reads of repo:src/big_module.py',
    );
  });
});

describe('rung 1: a line range with no start is the range from line 1', () => {
  const ID = 'repo:src/app.py';
  const s = (sel: unknown) => ({
    identity: ID,
    version: { kind: 'content-hash', value: 'h' },
    mutable: true,
    selector: sel,
  });
  const pair = (second: Record<string, number>) =>
    makeView({
      items: [
        ...callAndResult(
          '1',
          1,
          'read_file',
          { path: 'src/app.py', limit: 40 },
          {
            content: 'L1..40',
            source: s({ kind: 'lines', to: 40 }),
          },
        ),
        ...callAndResult(
          '2',
          2,
          'read_file',
          { path: 'src/app.py', limit: 40 },
          {
            content: 'L1..40',
            source: s({ kind: 'lines', ...second }),
          },
        ),
      ],
    });
  it('pairs {to: 40} with {from: 1, to: 40}, and not with {from: 2, to: 40}', () => {
    expect(at(decideById(condition('source-identity'), pair({ from: 1, to: 40 })), 'r1').verdict).toBe('eligible');
    expect(at(decideById(condition('source-identity'), pair({ from: 2, to: 40 })), 'r1').verdict).not.toBe('eligible');
  });
});

describe('no gated rung removes an item together with the item its removal rests on', () => {
  it('holds over random fixtures for each of rungs 0-3 alone', () => {
    const rules = conservativeRules();
    const singles = rules.map((rule) => ({ rule, condition: condition(rule.rule) }));
    fc.assert(
      fc.property(fixtureArb, (plan) => {
        const view = buildView(Fixture.parse(toFixture(plan)), 'pp', (t) => t.length);
        const { candidates } = splitByGate(view, visibleIds(view));
        for (const { rule, condition: c } of singles) {
          const removed = new Set(
            c
              .decide(view)
              .filter((e) => e.verdict === 'eligible')
              .map((e) => e.itemId),
          );
          for (const f of rule.assess(view, candidates)) {
            if (!removed.has(f.itemId)) continue;
            const lost = (f.reliesOn ?? []).filter((r) => removed.has(r));
            expect({ condition: c.name, item: f.itemId, lost }).toEqual({
              condition: c.name,
              item: f.itemId,
              lost: [],
            });
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('what an item holds is all it shows: content, text blocks and its call arguments as written', () => {
  const failedMigration = (sql: string, needed: string) =>
    makeView({
      items: [
        ...callAndResult(
          '2',
          2,
          'psql',
          { sql },
          {
            content: 'ERROR: lock timeout',
            status: { state: 'error', errorType: 'LockTimeout', message: 'lock timeout', fields: {} },
          },
          { content: 'psql (query in arguments)' },
        ),
        note('rec', 3, 'Done: region column added by migration 44'),
      ],
      visible: {
        obligations: [obligation('o1', { strings: [needed] })],
        workUnits: [closedUnit('wu', ['c2', 'r2'], 'rec', ['migration 44'])],
      },
    });

  it('a call whose arguments hold a visible obligation string is protected from every rung; one whose do not is not', () => {
    const held = failedMigration('ALTER TABLE orders ADD region text', 'ALTER TABLE orders ADD region text');
    for (const name of [
      'errored-input-residue',
      'verified-completion',
      'ladder-0-3',
      'ladder-0-4',
      'regenerability-guard',
    ])
      expect(at(decideById(condition(name), held), 'c2').verdict, name).toBe('keep');
    const other = failedMigration('ALTER TABLE orders ADD region text', 'DROP TABLE audit');
    expect(at(decideById(condition('ladder-0-3'), other), 'c2').verdict).toBe('eligible');
  });

  it('a needed string with quotes, written escaped in the JSON, is still found in the arguments', () => {
    const quoted = failedMigration('UPDATE t SET note = \'a "b"\'', 'note = \'a "b"\'');
    expect(at(decideById(condition('errored-input-residue'), quoted), 'c2').verdict).toBe('keep');
    expect(at(decideById(condition('ladder-0-3'), quoted), 'c2').verdict).toBe('keep');
  });

  it('an id a pending step references counts in the content even when text blocks say less', () => {
    const result = (blocks: boolean) =>
      makeView({
        items: [
          note('n1', 1, 'plan: roll back if the deploy fails'),
          ...callAndResult(
            '2',
            2,
            'deploy',
            { env: 'staging' },
            {
              content: 'failed: rollback per n1',
              ...(blocks ? { blocks: [{ type: 'text', text: 'failed' }] } : {}),
              status: { state: 'error', errorType: 'DeployFailed', message: 'failed', fields: {} },
            },
          ),
        ],
        visible: { pendingSteps: [{ id: 's1', description: 'roll back', references: ['n1'] }] },
      });
    for (const blocks of [false, true])
      expect(at(decideById(condition('errored-input-residue'), result(blocks)), 'r2').verdict, String(blocks)).not.toBe(
        'eligible',
      );
  });
});
