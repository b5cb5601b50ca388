import { describe, expect, it } from 'vitest';
import { at, condition, decideById, makeView, result, verdicts } from './build-view.js';

const si = condition('source-identity');
const sha = (value: string) => ({ kind: 'git-sha', value, of: 'blob' });
const src = (identity: string, version: unknown, mutable: unknown, selector?: string) => ({
  source: { identity, version, mutable, ...(selector !== undefined ? { selector } : {}) },
});

describe('source-identity (rung 1)', () => {
  it('makes all but the latest read of one known version eligible, even when the rendered bytes differ', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'file v1 (first render)', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'file v1 (second render)', src('repo:a.ts', sha('aaa'), true)),
        result('r3', 3, 'file v1', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'eligible', r3: 'keep' });
    expect(at(d, 'r1').reason).toBe('reads repo:a.ts (read_file whole) at git blob aaa, as does r3, the latest read of that view and state, which stays');
    expect(at(d, 'r1').rung).toBe(1);
  });

  it('keeps reads of different known versions', () => {
    const view = makeView({
      items: [result('r1', 1, 'v1', src('repo:a.ts', sha('aaa'), true)), result('r2', 2, 'v2', src('repo:a.ts', sha('bbb'), true))],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });

  it('abstains on a mutable or UNKNOWN-mutability source read with UNKNOWN version, keeping the latest', () => {
    for (const mutable of [true, 'UNKNOWN']) {
      const view = makeView({
        items: [result('r1', 1, 'same', src('repo:cfg', 'UNKNOWN', mutable)), result('r2', 2, 'same', src('repo:cfg', 'UNKNOWN', mutable))],
      });
      const d = decideById(si, view);
      expect(verdicts(si, view)).toEqual({ r1: 'abstain', r2: 'keep' });
      expect(at(d, 'r1').reason).toMatch(/^cannot establish same source state/);
      expect(at(d, 'r1').reason).toContain(`mutable: ${String(mutable)}`);
    }
  });

  it('treats an immutable source as one state even without a version', () => {
    const view = makeView({
      items: [result('r1', 1, 'doc', src('pkg:lodash@4', 'UNKNOWN', false)), result('r2', 2, 'doc', src('pkg:lodash@4', 'UNKNOWN', false))],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'keep' });
  });

  it('abstains on a known-version read when the only later read has UNKNOWN version', () => {
    const view = makeView({
      items: [result('r1', 1, 'x', src('repo:a.ts', sha('aaa'), true)), result('r2', 2, 'x', src('repo:a.ts', 'UNKNOWN', true))],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'abstain', r2: 'keep' });
    expect(at(d, 'r1').reason).toContain('the later read of the same view r2 reads repo:a.ts with UNKNOWN version');
  });

  it('names the latest read of the same state across reads of other states', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'a', src('repo:a.ts', sha('aaa'), true)),
        result('r2', 2, 'b', src('repo:a.ts', sha('bbb'), true)),
        result('r3', 3, 'a', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    const d = decideById(si, view);
    expect(verdicts(si, view)).toEqual({ r1: 'eligible', r2: 'keep', r3: 'keep' });
    expect(at(d, 'r1').reason).toContain('as does r3');
  });

  it('requires the same selector and an ok status', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'lines 1-10', src('repo:a.ts', sha('aaa'), true, '1-10')),
        result('r2', 2, 'lines 11-20', src('repo:a.ts', sha('aaa'), true, '11-20')),
        result('r3', 3, 'boom', { ...src('repo:a.ts', sha('aaa'), true), status: { state: 'error', errorType: 'EIO', message: 'read failed' } }),
        result('r4', 4, 'all', src('repo:a.ts', sha('aaa'), true)),
      ],
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep', r3: 'keep', r4: 'keep' });
  });

  it('keeps a protected older read and still removes nothing it protects', () => {
    const view = makeView({
      items: [result('r1', 1, 'x', src('repo:a.ts', sha('aaa'), true)), result('r2', 2, 'x', src('repo:a.ts', sha('aaa'), true))],
      visible: { pinned: ['r1'] },
    });
    expect(verdicts(si, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });
});
