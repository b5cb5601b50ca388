import { describe, expect, it } from 'vitest';
import { erroredInputResidue } from '../../src/policy/mechanisms/errored-input-residue.js';
import { single } from '../../src/policy/single.js';
import { at, callAndResult, condition, decideById, makeView, note, verdicts } from './build-view.js';

const eir = condition('errored-input-residue');
const failure = (fields: Record<string, string> = {}) => ({
  content: 'Traceback (most recent call last):\n  ... 400 lines ...\nSyntaxError: invalid syntax',
  status: { state: 'error', errorType: 'SyntaxError', message: 'invalid syntax', fields },
});

describe('errored-input-residue (rung 2, afterTurns = 4)', () => {
  it('makes an errored result and its call partial removals once the error is afterTurns old', () => {
    const view = makeView({
      items: [...callAndResult('1', 1, 'run', { cmd: 'python x.py' }, failure({ line: '12', exitCode: '1' })), note('n9', 5, 'later')],
    });
    const d = decideById(eir, view);
    expect(eir.parameters).toEqual({ afterTurns: 4 });
    expect(at(d, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue', rung: 2 });
    expect(at(d, 'r1').residue).toEqual(['tool', 'errorType', 'message', 'fields.exitCode', 'fields.line']);
    expect(at(d, 'r1').reason).toContain('SyntaxError: invalid syntax');
    expect(at(d, 'r1').reason).toContain('4 turns before the prune point');
    expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible' });
    expect(at(d, 'c1').residue).toEqual(['tool', 'errorType', 'message', 'fields.exitCode', 'fields.line']);
    expect(at(d, 'c1').reason).toBe(
      'its result r1 errored (SyntaxError: invalid syntax) 4 turns before the prune point (at least 4); ' +
        'the arguments go, tool, errorType, message, fields.exitCode, fields.line stay',
    );
  });

  it('keeps an error younger than afterTurns, and keeps ok results of any age', () => {
    const view = makeView({
      items: [...callAndResult('1', 1, 'run', { cmd: 'ok' }), ...callAndResult('2', 2, 'run', { cmd: 'bad' }, failure()), note('n9', 5, 'now')],
    });
    expect(verdicts(eir, view)).toEqual({ c1: 'keep', r1: 'keep', c2: 'keep', r2: 'keep', n9: 'keep' });
  });

  it('takes afterTurns as a parameter', () => {
    const two = single(erroredInputResidue({ afterTurns: 2 }), { gate: true, upperRisk: false, description: 'test' });
    const view = makeView({ items: [...callAndResult('2', 2, 'run', { cmd: 'bad' }, failure()), note('n9', 4, 'now')] });
    expect(verdicts(two, view)).toMatchObject({ c2: 'eligible', r2: 'eligible' });
    expect(two.parameters).toEqual({ afterTurns: 2 });
  });

  it('keeps a gated errored result but still reduces its unprotected call', () => {
    const view = makeView({
      items: [...callAndResult('1', 1, 'run', { cmd: 'bad' }, failure()), note('n9', 6, 'now')],
      visible: { pendingSteps: [{ id: 'ps1', description: 'retry with the failing output', references: ['r1'] }] },
    });
    const d = decideById(eir, view);
    expect(at(d, 'r1')).toMatchObject({ verdict: 'keep', rule: 'protection', obligationsConsulted: ['ps1'] });
    expect(at(d, 'c1').verdict).toBe('eligible');
  });
});
