import { describe, expect, it } from 'vitest';
import type { Predictor } from '../../src/policy/predictor.js';
import { conditionsWith } from '../../src/policy/registry.js';
import type { ItemSpec } from './build-view.js';
import {
  echoedConstraintView,
  at,
  callAndResult,
  closedUnit,
  condition,
  decideById,
  makeView,
  note,
  result,
  verdicts,
} from './build-view.js';

// A blob sha hashes the file's content, so two reads carrying it are one state even of a mutable working tree.
const sha = (value: string) => ({ kind: 'git-sha', value, of: 'blob' });
const ws = 'workspace:payments';
const run = (base: string, turn: number, content: string, extra: Record<string, unknown> = {}): ItemSpec[] =>
  callAndResult(
    base,
    turn,
    'run_tests',
    { suite: 'unit' },
    { content, source: { identity: ws, version: 'UNKNOWN', mutable: true }, covers: ['t1'], ...extra },
  );
const edit = (base: string, turn: number): ItemSpec[] =>
  callAndResult(base, turn, 'edit', { path: 'pool.ts' }, { content: 'ok' }, { effects: [ws] });
const failed = { status: { state: 'error', errorType: 'TestFailure', message: '1 failed', fields: { failing: 't1' } } };

/**
 * ra and rb are copies; rb and r2 are the trace of a closed unit whose consequence n3 records. Rung 0 removes ra
 * because rb stays, and rung 3 removes r2 because n3 stays: rb and n3 are what those removals rest on.
 */
function relianceView(more: ItemSpec[]) {
  const copy = (id: string, turn: number) =>
    result(id, turn, 'backoff_ms: 450', {
      tool: { name: 'read_file', arguments: { path: 'cfg.yaml' }, callId: `k-${id}` },
    });
  return makeView({
    items: [
      copy('ra', 1),
      copy('rb', 2),
      result('r2', 3, 'grep output'),
      note('n3', 4, 'Decision: retry with backoff'),
      ...more,
    ],
    visible: { workUnits: [closedUnit('wu1', ['rb', 'r2', 'n3'], 'n3', ['retry with backoff'])] },
  });
}

describe('Layer B ladders', () => {
  it('records the rule, rung and step that removed each item', () => {
    const view = makeView({
      items: [
        result('d1', 1, 'duplicate bytes'),
        result('d2', 1, 'duplicate bytes'),
        result('s1', 2, 'read one', { source: { identity: 'repo:a.ts', version: sha('aaa'), mutable: true } }),
        // Another rendering of one version that holds s1's text whole (other bytes, so not rung 0's copy).
        result('s2', 2, 'read one (read again)', {
          source: { identity: 'repo:a.ts', version: sha('aaa'), mutable: true },
        }),
        ...callAndResult('e', 3, 'build', { target: 'all' }, { content: 'huge log', ...failed }),
        ...run('t1', 4, 'before edit'),
        ...edit('x', 5),
        ...run('t2', 6, 'after edit'),
        note('n9', 9, 'now'),
      ],
    });
    const d = decideById(condition('ladder-0-2'), view);
    expect(at(d, 'd1')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy', rung: 0, step: 1 });
    expect(at(d, 's1')).toMatchObject({ verdict: 'eligible', rule: 'source-identity', rung: 1, step: 2 });
    expect(at(d, 're')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue', rung: 2, step: 3 });
    expect(at(d, 're').residue).toEqual(['tool', 'errorType', 'message', 'fields.failing']);
    expect(at(d, 'rt1')).toMatchObject({ verdict: 'eligible', rule: 'checked-supersession', rung: 2, step: 4 });
    expect(at(d, 'd2')).toMatchObject({ verdict: 'keep', rule: 'none', rung: null });
    expect(at(d, 'd2').step).toBeUndefined();
    expect(condition('ladder-0-2').order).toEqual([
      'exact-redundancy',
      'source-identity',
      'errored-input-residue',
      'checked-supersession',
    ]);
  });

  it('keeps from its later rules what an earlier removal rests on, and still removes what nothing rests on', () => {
    // A copy whose survivor is outside any unit still goes.
    const view = relianceView([result('x1', 5, 'same bytes'), result('x2', 6, 'same bytes')]);
    for (const name of ['ladder-0-3', 'ladder-0-4']) {
      const d = decideById(condition(name), view);
      expect(at(d, 'ra')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy', step: 1 });
      expect(at(d, 'rb')).toMatchObject({ verdict: 'keep' });
      expect(at(d, 'rb').reason).toMatch(
        /^kept for an earlier removal: ra's, by exact-redundancy at step 1, rests on it staying/,
      );
      expect(at(d, 'r2')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
      expect(at(d, 'x1')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy' });
      // The consequence record that r2's removal rests on is never the predictor's to take.
      expect(at(d, 'n3').verdict).not.toBe('eligible');
    }
    // Alone, rung 3 removes rb: its closure is verified, and no earlier removal leaned on it.
    expect(at(decideById(condition('verified-completion'), view), 'rb').verdict).toBe('eligible');
  });

  it('never asks the predictor about what an earlier removal rests on, and still asks about everything else open', () => {
    // q1 and q2 rest under nothing, so they are the predictor's to judge.
    const view = relianceView([result('q1', 5, 'unrelated listing'), note('q2', 6, 'an aside')]);
    for (const name of ['ladder-0-3', 'ladder-0-4']) {
      const asked = new Set<string>();
      const spy: Predictor = (_view, candidates) => {
        for (const id of candidates) asked.add(id);
        return new Map(candidates.map((id) => [id, { reason: 'spy says so', confidence: 1 }]));
      };
      const built = conditionsWith({ predictor: spy, label: 'spy' }).find((c) => c.name === name)!;
      const d = decideById(built, view);
      expect([...asked].sort(), name).toEqual(['q1', 'q2']);
      for (const id of ['rb', 'n3']) {
        expect(at(d, id).verdict, `${name} ${id}`).toBe('keep');
        expect(at(d, id).reason).toMatch(/^kept for an earlier removal: /);
      }
      expect(at(d, 'q1').verdict).toBe(name === 'ladder-0-4' ? 'eligible' : 'abstain');
    }
  });

  it('never shows the predictor the last holder of a removed user constraint, and still shows one of several', () => {
    // Rung 3 removes u, the constraint, while its text stays in h: from then on the gate refuses h (its last
    // holder), which the predictor's own gate cannot see, since it reads the context after u left.
    const spyOn = (name: string) => {
      const asked: string[] = [];
      const spy: Predictor = (_view, candidates) => {
        asked.push(...candidates);
        return new Map(candidates.map((id) => [id, { reason: 'spy says so', confidence: 1 }]));
      };
      return { asked, ladder: conditionsWith({ predictor: spy, label: 'spy' }).find((c) => c.name === name)! };
    };
    const one = echoedConstraintView(['h']);
    expect(at(decideById(condition('verified-completion'), one), 'u').verdict).toBe('eligible');
    for (const name of ['ladder-0-3', 'ladder-0-4']) {
      const { asked, ladder } = spyOn(name);
      const d = decideById(ladder, one);
      expect(at(d, 'u')).toMatchObject({ verdict: 'eligible', rule: 'verified-completion' });
      expect(asked, name).toEqual(['q1']);
      expect(at(d, 'h')).toMatchObject({ verdict: 'keep', rule: 'none' });
      expect(at(d, 'h').reason).toBe(
        'kept for an earlier removal: regenerability gate: sole record of a user constraint (u, removed earlier, leaned on this item), and no identical copy of it stays in context',
      );
    }
    // With two holders neither alone is the last: both are the predictor's, and the gate lets one of them go.
    const two = echoedConstraintView(['h', 'h2']);
    for (const name of ['ladder-0-3', 'ladder-0-4']) {
      const { asked, ladder } = spyOn(name);
      const d = decideById(ladder, two);
      expect(asked, name).toEqual(['h', 'h2', 'q1']);
      const removed = ['h', 'h2'].filter((id) => at(d, id).verdict === 'eligible');
      expect(removed).toHaveLength(name === 'ladder-0-4' ? 1 : 0);
    }
  });

  it('never removes every copy: later rules do not see what earlier rules removed', () => {
    const same = { source: { identity: 'repo:a.ts', version: sha('aaa'), mutable: true } };
    const view = makeView({
      items: [result('a', 1, 'bytes', same), result('b', 2, 'bytes', same), result('c', 3, 'bytes', same)],
    });
    const d = decideById(condition('ladder-0-1'), view);
    expect(verdicts(condition('ladder-0-1'), view)).toEqual({ a: 'eligible', b: 'eligible', c: 'keep' });
    expect(at(d, 'a').rule).toBe('exact-redundancy');
    expect(at(d, 'b').rule).toBe('exact-redundancy');
  });

  it('checks closure against the context after earlier removals, not against the raw history', () => {
    const view = makeView({
      items: [
        result('t1', 1, 'trace'),
        result('rec', 2, 'Decision: pool size 20'),
        result('rec2', 3, 'Decision: pool size 20'),
      ],
      visible: { workUnits: [closedUnit('wu1', ['t1'], 'rec', ['pool size 20'])] },
      subgoal: 'pool size decision trace',
    });
    expect(at(decideById(condition('verified-completion'), view), 't1').verdict).toBe('eligible');
    const d = decideById(condition('ladder-0-3'), view);
    expect(at(d, 'rec')).toMatchObject({ verdict: 'eligible', rule: 'exact-redundancy', step: 1 });
    expect(at(d, 't1')).toMatchObject({ verdict: 'abstain', rule: 'verified-completion', step: 5 });
    expect(at(d, 't1').reason).toBe("closure not verified: wu1's consequence record rec is not in context");
    expect(at(d, 't1').obligationsConsulted).toEqual(['wu1']);
  });

  it('keeps a residue-reduced item in context as its residue, so no later rule leans on the bulk that went', () => {
    // The newer run's result errored, so rung 2's residue rule takes it first (step 3). Checked supersession (step 4)
    // then sees r1 only as its residue, with no coverage of its own, and cannot let it supersede r0.
    const view = makeView({
      items: [...run('0', 0, 'first'), ...edit('x', 1), ...run('1', 2, 'second', failed), note('n', 8, 'now')],
    });
    const d = decideById(condition('ladder-0-2'), view);
    expect(at(d, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue', step: 3 });
    expect(at(d, 'r1').residue).toEqual(['tool', 'errorType', 'message', 'fields.failing']);
    expect(at(d, 'r0').verdict).not.toBe('eligible');
    // Alone, rung 2 refuses too, on its own account: a failed later run is not a newer version of the source.
    expect(at(decideById(condition('checked-supersession'), view), 'r0').verdict).toBe('keep');
  });

  it('lets a later rule remove what an earlier rule abstained on', () => {
    const view = makeView({ items: [...run('0', 0, 'before'), ...edit('x', 1), ...run('1', 2, 'after')] });
    expect(at(decideById(condition('source-identity'), view), 'r0').verdict).toBe('abstain');
    expect(at(decideById(condition('ladder-0-2'), view), 'r0')).toMatchObject({
      verdict: 'eligible',
      rule: 'checked-supersession',
    });
    expect(at(decideById(condition('ladder-0-1'), view), 'r0')).toMatchObject({
      verdict: 'abstain',
      rule: 'source-identity',
      step: 2,
    });
  });

  it('gates first in every ladder', () => {
    const view = makeView({ items: [result('a', 1, 'dup'), result('b', 2, 'dup')], visible: { pinned: ['a', 'b'] } });
    for (const name of ['ladder-0', 'ladder-0-1', 'ladder-0-2', 'ladder-0-3', 'ladder-0-4']) {
      expect(verdicts(condition(name), view)).toEqual({ a: 'keep', b: 'keep' });
    }
  });

  it('ladder-0-3 abstains where only the predictor would remove; ladder-0-4 removes, labelled upper-risk', () => {
    const view = makeView({
      items: [note('n1', 1, 'lunch menu'), note('n2', 2, 'pool timeout is 30s'), note('n3', 3, 'holiday plans')],
      subgoal: 'fix the pool timeout',
      visible: { pinned: ['n3'] },
    });
    const conservative = decideById(condition('ladder-0-3'), view);
    expect(at(conservative, 'n1')).toMatchObject({ verdict: 'abstain', rule: 'predictive-semantic', rung: 4, step: 6 });
    expect(at(conservative, 'n1').reason).toMatch(
      /^only prediction supports removal \(predicted unneeded: lexical relevance 0\.00/,
    );
    expect(at(conservative, 'n2').verdict).toBe('keep');
    expect(at(conservative, 'n3')).toMatchObject({ verdict: 'keep', rule: 'protection' });
    const upper = decideById(condition('ladder-0-4'), view);
    expect(at(upper, 'n1')).toMatchObject({ verdict: 'eligible', rule: 'predictive-semantic', rung: 4, step: 6 });
    expect(at(upper, 'n3').verdict).toBe('keep');
    expect(condition('ladder-0-3')).toMatchObject({ upperRisk: false, rung: 3 });
    expect(condition('ladder-0-4')).toMatchObject({ upperRisk: true, rung: 4 });
  });

  it("ladder-0-3 keeps an earlier rule's abstention; ladder-0-4 lets the predictor remove it", () => {
    const view = makeView({
      items: [
        result('a', 1, 'v1 of config', { source: { identity: 'repo:cfg', version: 'UNKNOWN', mutable: true } }),
        result('b', 2, 'v2 of config', { source: { identity: 'repo:cfg', version: 'UNKNOWN', mutable: true } }),
      ],
      subgoal: 'fix the pool timeout',
    });
    expect(at(decideById(condition('ladder-0-3'), view), 'a')).toMatchObject({
      verdict: 'abstain',
      rule: 'source-identity',
      step: 2,
    });
    expect(at(decideById(condition('ladder-0-4'), view), 'a')).toMatchObject({
      verdict: 'eligible',
      rule: 'predictive-semantic',
      step: 6,
    });
  });
});
