// Held-out review H (7 December): adversarial scenarios against the evidence rungs, the gate and the ladders. Each
// finding is a repro of what the safe rule would decide beside an `it` of what the rule must still allow, with what
// check the rung skipped. Findings fixed in the code are plain `it`; an open one is `it.fails` (docs/choices.md, "Known
// open defects").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Eligibility } from '../../src/policy/types.js';
import type { ItemSpec } from './build-view.js';
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

type View = ReturnType<typeof makeView>;
const V = (name: string, view: View, id: string): Eligibility => at(decideById(condition(name), view), id);

const ws = 'workspace:pool';
const RUNG3 = ['verified-completion', 'ladder-0-3', 'ladder-0-4'];

/**
 * H1. An edit and a test run, traced by closed unit wu1 whose record n9 holds its consequence; a second unit lists the
 * run's call c3 (a follow-up that re-runs or inspects it). Rung 3 says it never removes an item that also belongs to
 * open work, and the gate reads a reference to a call as reaching its result (version 19): the result r3 answers c3,
 * so it is part of whatever work c3 is part of.
 */
function followUp(second?: Record<string, unknown>): View {
  return makeView({
    items: [
      ...callAndResult('2', 2, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] }),
      ...callAndResult('3', 3, 'run_tests', { target: 'pool' }, { content: 'test_pool_size ok' }),
      note('n9', 4, 'wu1 done: pool size fixed'),
    ],
    subgoal: 'write the release notes',
    visible: {
      workUnits: [closedUnit('wu1', ['c2', 'r2', 'c3', 'r3'], 'n9', ['pool size fixed']), ...(second ? [second] : [])],
    },
  });
}
const unit = (state: string, traceItems: string[]) => ({ id: 'wu2', description: 'follow-up', state, traceItems });

describe('H1 (rung 3): a result is part of the open or unresolved work its call is part of', () => {
  // Skipped check: "never removes an item that also belongs to open work" read the unit lists by item id alone, so a
  // result whose call an open unit lists went with the closed unit's trace, the call kept and its output removed.
  for (const name of RUNG3) {
    it(`${name}: an open unit listing the call c3 keeps its result r3 from rung 3`, () => {
      expect(V(name, followUp(unit('open', ['c3'])), 'r3').rule).not.toBe('verified-completion');
      expect(V(name, followUp(unit('open', ['c3'])), 'c3').rule).not.toBe('verified-completion');
    });
    it(`${name}: a unit closed unresolved listing c3 keeps rung 3 from removing r3`, () => {
      const r3 = V(name, followUp(unit('closed-unresolved', ['c3'])), 'r3');
      expect(r3.rule === 'verified-completion' && r3.verdict === 'eligible').toBe(false);
      // The abstention binds nothing, as rung 3's other abstentions: ladder-0-4's predictor may still remove r3.
      if (name !== 'ladder-0-4') {
        expect(r3).toMatchObject({ verdict: 'abstain', rule: 'verified-completion' });
        expect(r3.reason).toContain('wu2 closed unresolved');
      }
    });
    it(`${name}: still removed: r3 with no other unit, the edit beside an open c3, and c3 when the open unit lists r3`, () => {
      expect(V(name, followUp(), 'r3')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
      expect(V(name, followUp(unit('open', ['c3'])), 'r2')).toMatchObject({
        verdict: 'eligible',
        rule: 'verified-completion',
      });
      // The reach runs from a call to its result, as the gate's does: a unit listing the result does not keep its call.
      expect(V(name, followUp(unit('open', ['r3'])), 'c3')).toMatchObject({
        verdict: 'eligible',
        rule: 'verified-completion',
      });
    });
  }
  it('verified-completion: a unit listing a call alone holds its result back, never makes it eligible', () => {
    // A result no unit lists is no unit's trace item; a closed verified unit listing its call leaves it as it was.
    const view = followUp({ ...closedUnit('wu2', ['c3'], 'n9', ['pool size fixed']) });
    const alone = makeView({
      items: [...callAndResult('3', 3, 'run_tests', { target: 'pool' }, { content: 'ok' }), note('n9', 4, 'done')],
      visible: { workUnits: [closedUnit('wu1', ['c3'], 'n9', ['done'])] },
    });
    expect(V('verified-completion', alone, 'r3').verdict).toBe('keep');
    expect(V('verified-completion', view, 'r3')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
  });
});

/**
 * H2 (over-refusal). Two identical writes of one text, each recorded with one bare effect on the file (the effect
 * takes its call's result status), between an older read x and a newer read y of the file. Alone, rung 2 supersedes x
 * (both writes succeeded). In a ladder, rung 0 first removes the first write's result as a copy of the second's, and
 * rung 2 then reads the first write's bare effect against the context as it stands, where its result no longer is:
 * the outcome reads as unknown and rung 2 abstains. The check rung 2 names (every effect between them succeeded) holds.
 */
function writesTwice(effect: (path: string) => unknown): View {
  const src = (hash: string) => ({
    identity: 'repo:pool.ts',
    version: { kind: 'content-hash', value: hash },
    mutable: true,
  });
  const write = (base: string, turn: number): ItemSpec[] =>
    callAndResult(
      base,
      turn,
      'write',
      { path: 'pool.ts', text: 'size = 8' },
      { content: 'written' },
      {
        effects: [effect('repo:pool.ts')],
      },
    );
  return makeView({
    items: [
      result('x', 1, 'size = 4', { source: src('h1') }),
      ...write('e', 2),
      ...write('f', 3),
      result('y', 4, 'size = 8', { source: src('h2') }),
    ],
  });
}
const bare = (path: string) => path;
const succeeded = (path: string) => ({ source: path, outcome: 'succeeded' });

describe('H2 (ladders, over-refusal): an effect read against the context after an earlier removal', () => {
  for (const name of ['ladder-0-2', 'ladder-0-3', 'ladder-0-4']) {
    it(`${name}: supersedes x as rung 2 alone does, after rung 0 removed the first write's result`, () => {
      expect(V(name, writesTwice(bare), 'x')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession' });
    });
    it(`${name}: allowed as before: rung 0 removes re, and x goes where the effects record their outcomes`, () => {
      expect(V(name, writesTwice(bare), 're')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      expect(V(name, writesTwice(succeeded), 'x')).toMatchObject({
        verdict: 'eligible',
        rule: 'checked-supersession',
      });
    });
  }
  // The other side of the same fix: where the removed result was recorded is kept, not read as "anywhere". In a batch
  // (both writes and the newer read issued before any result), the writes are not ordered before y, whether the first
  // write's result is in context (the rule alone) or an earlier step removed it (the ladders): no supersession.
  const batch = (): View => {
    const src = { identity: 'repo:pool.ts', version: { kind: 'content-hash', value: 'h2' }, mutable: true };
    const [ce, re] = callAndResult(
      'e',
      2,
      'write',
      { path: 'pool.ts', text: 'size = 8' },
      { content: 'written' },
      { effects: ['repo:pool.ts'] },
    );
    const [cf, rf] = callAndResult(
      'f',
      2,
      'write',
      { path: 'pool.ts', text: 'size = 8' },
      { content: 'written' },
      { effects: ['repo:pool.ts'] },
    );
    const [cy, ry] = callAndResult('y', 2, 'read', { path: 'pool.ts' }, { content: 'size = 8', source: src });
    const x = result('x', 1, 'size = 4', { source: { ...src, version: { kind: 'content-hash', value: 'h1' } } });
    return makeView({ items: [x, ce!, cf!, cy!, re!, rf!, ry!] });
  };
  for (const name of ['checked-supersession', 'ladder-0-2', 'ladder-0-3', 'ladder-0-4'])
    it(`${name}: a batch's writes, a result of which an earlier step removed, stay unordered before y: x stays`, () => {
      // ladder-0-4's predictor may still remove x at rung 4; what is refused is rung 2's supersession.
      const x = V(name, batch(), 'x');
      expect(x.verdict === 'eligible' && x.rule === 'checked-supersession').toBe(false);
      if (name !== 'ladder-0-4') expect(x.verdict).not.toBe('eligible');
      if (name !== 'checked-supersession')
        expect(V(name, batch(), 're')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
    });
  it('checked-supersession alone supersedes x on the bare effects', () => {
    expect(V('checked-supersession', writesTwice(bare), 'x')).toMatchObject({ verdict: 'eligible' });
  });
});

/**
 * H3 (ladders, over-refusal, fixed). Identical failed runs of one command. Alone, the residue rule cuts each call's
 * arguments to their residue. In a ladder, rung 0 first removes the first run's result as a copy of the second's, and
 * the residue rule looked for the first call's result in the context as it stands: it was gone, so the call got no
 * finding and kept its arguments. The rule now pairs a call with its result as the runtime recorded them (the removed
 * result, `removedItemsOf`), so it decides the call as it would alone: cut, kept or bound, never more.
 */
type Effects = 'none' | 'succeeded' | 'unknown' | 'bare';
const EFFECTS: Record<Effects, unknown[] | undefined> = {
  none: undefined,
  succeeded: [{ source: 'workspace:w', outcome: 'succeeded' }],
  unknown: [{ source: 'workspace:w', outcome: 'unknown' }],
  bare: ['workspace:w'],
};
function failedRuns(copies = 2, effects: Effects = 'none', needs?: string): View {
  const err = { state: 'error', errorType: 'ExitError', message: 'exit 2', fields: { exitCode: '2' } };
  const call = EFFECTS[effects] ? { effects: EFFECTS[effects] } : {};
  const run = (base: string, turn: number): ItemSpec[] =>
    callAndResult(
      base,
      turn,
      'bash',
      { command: 'make all' },
      { content: 'make: *** [all] Error 2', status: err },
      call,
    );
  return makeView({
    items: Array.from({ length: copies }, (_, i) => run(String(i + 1), i + 1)).flat(),
    tools: [{ name: 'bash', sideEffect: 'non-idempotent' }],
    ...(needs ? { visible: { obligations: [obligation('o1', { strings: [needs] })] } } : {}),
  });
}
const failedTwice = (): View => failedRuns();

describe('H3 (ladders, over-refusal, fixed): a failed call whose result an earlier step removed', () => {
  it('errored-input-residue alone cuts both calls to their residue', () => {
    const view = failedTwice();
    expect(V('errored-input-residue', view, 'c1')).toMatchObject({ verdict: 'eligible' });
    expect(V('errored-input-residue', view, 'c2')).toMatchObject({ verdict: 'eligible' });
  });
  for (const name of ['ladder-0-2', 'ladder-0-3', 'ladder-0-4'])
    it(`${name}: cuts c1 to its residue after rung 0 removed r1`, () => {
      expect(V(name, failedTwice(), 'c1')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
      expect(V(name, failedTwice(), 'c1').reason).toContain('its result r1 errored');
    });
  it('ladder-0-2: allowed as before: r1 goes by rung 0, c2 to its residue, r2 stays for r1', () => {
    const view = failedTwice();
    expect(V('ladder-0-2', view, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
    expect(V('ladder-0-2', view, 'c2')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue' });
    expect(V('ladder-0-2', view, 'r2').verdict).toBe('keep');
  });
  // The refusal side: the removed result is read for the pairing only, so what the rule alone refuses stays refused.
  it('ladder-0-2: a call whose effect is recorded as succeeded stays KEEP by the residue rule', () => {
    expect(V('ladder-0-2', failedRuns(2, 'succeeded'), 'c1')).toMatchObject({
      verdict: 'keep',
      rule: 'errored-input-residue',
    });
  });
  it('ladder-0-2: a call whose effect has no recorded outcome is a bound abstention, as alone', () => {
    expect(V('ladder-0-2', failedRuns(2, 'unknown'), 'c1')).toMatchObject({
      verdict: 'abstain',
      rule: 'errored-input-residue',
    });
  });
  it('ladder-0-2: arguments holding a visible obligation string are not cut', () => {
    expect(V('ladder-0-2', failedRuns(2, 'none', 'make all'), 'c1').verdict).not.toBe('eligible');
  });
  it('property: in a ladder, each call of identical failed runs is decided as the residue rule alone decides it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 4 }),
        fc.constantFrom<Effects>('none', 'succeeded', 'unknown', 'bare'),
        fc.constantFrom(undefined, 'make all', 'Error 2', 'unrelated'),
        fc.constantFrom('ladder-0-2', 'ladder-0-3'),
        (copies, effects, needs, name) => {
          const view = failedRuns(copies, effects, needs);
          const alone = decideById(condition('errored-input-residue'), view);
          const inLadder = decideById(condition(name), view);
          for (let i = 1; i <= copies; i++) {
            const a = at(alone, `c${i}`);
            const l = at(inLadder, `c${i}`);
            expect(l.verdict, `${name} c${i}: ${l.reason} / alone: ${a.reason}`).toBe(a.verdict);
            if (a.verdict === 'eligible') expect(l.rule).toBe('errored-input-residue');
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});
