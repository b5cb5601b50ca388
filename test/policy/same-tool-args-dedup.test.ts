import { describe, expect, it } from 'vitest';
import { DCP_PLACEHOLDER, dedupKey } from '../../src/policy/comparators/same-tool-args-dedup.js';
import { at, callAndResult, condition, decideById, makeView, obligation, verdicts } from './build-view.js';

const dedup = condition('same-tool-args-dedup');

describe('dedupKey (DCP signature)', () => {
  it('drops top-level null values and sorts keys recursively, keeping array order and nested nulls', () => {
    expect(dedupKey('read', { path: 'a', offset: null })).toBe('read::{"path":"a"}');
    expect(dedupKey('read', { b: { y: 1, x: 2 }, a: [3, 1] })).toBe('read::{"a":[3,1],"b":{"x":2,"y":1}}');
    expect(dedupKey('read', { opts: { z: null } })).toBe('read::{"opts":{"z":null}}');
    expect(dedupKey('read', {})).toBe('read::{}');
    expect(dedupKey('read', { path: 'a', offset: null })).toBe(dedupKey('read', { path: 'a' }));
  });
});

describe('same-tool-args-dedup (OpenCode DCP deduplication)', () => {
  it('keeps the latest result per key and replaces earlier ones with the DCP placeholder, never comparing outputs', () => {
    const view = makeView({
      items: [
        ...callAndResult('1', 1, 'read', { path: 'config.json', offset: null }, { content: 'timeout: 10' }),
        ...callAndResult('2', 2, 'read', { path: 'config.json' }, { content: 'timeout: 30' }),
        ...callAndResult('3', 3, 'read', { path: 'other.json' }, { content: 'x' }),
      ],
    });
    const d = decideById(dedup, view);
    expect(verdicts(dedup, view)).toEqual({
      c1: 'keep',
      r1: 'eligible',
      c2: 'keep',
      r2: 'keep',
      c3: 'keep',
      r3: 'keep',
    });
    expect(at(d, 'r1')).toMatchObject({
      rule: 'same-tool-args-dedup',
      rung: null,
      replacement: DCP_PLACEHOLDER,
      obligationsConsulted: [],
    });
    expect(at(d, 'r1').reason).toBe('same tool (read) and arguments as r2, the latest, which is kept');
  });

  it('never quotes the arguments in a reason: a secret typed into a command stays out of every decision', () => {
    const typed = 'PGPASSWORD=' + 'hunter2-xyz psql -h db';
    const view = makeView({
      items: [
        ...callAndResult('1', 1, 'bash', { command: typed }, { content: 'ok' }),
        ...callAndResult('2', 2, 'bash', { command: typed }, { content: 'ok' }),
        ...callAndResult(
          '3',
          3,
          'bash',
          { command: typed },
          { content: 'boom', status: { state: 'error', errorType: 'exit-code', message: 'boom', fields: {} } },
        ),
      ],
    });
    const d = decideById(dedup, view);
    expect(verdicts(dedup, view)).toMatchObject({ r1: 'eligible', r2: 'eligible', r3: 'keep' });
    for (const id of ['r1', 'r2', 'r3', 'c1']) expect(at(d, id).reason, id).not.toContain('hunter2');
  });

  it('treats differently ordered nested arguments as the same call', () => {
    const view = makeView({
      items: [
        ...callAndResult('1', 1, 'grep', { opts: { i: true, n: true }, q: 'pool' }, { content: 'a' }),
        ...callAndResult('2', 2, 'grep', { q: 'pool', opts: { n: true, i: true } }, { content: 'b' }),
      ],
    });
    expect(verdicts(dedup, view)).toMatchObject({ r1: 'eligible', r2: 'keep' });
  });

  it("honours the view's protectedTools and otherwise ignores obligations", () => {
    const view = makeView({
      items: [
        ...callAndResult('1', 1, 'todo', {}, { content: 'a' }),
        ...callAndResult('2', 2, 'todo', {}, { content: 'b' }),
        ...callAndResult('3', 3, 'read', { path: 'a' }, { content: 'needed' }),
        ...callAndResult('4', 4, 'read', { path: 'a' }, { content: 'later' }),
      ],
      visible: { protectedTools: ['todo'], obligations: [obligation('ob1', { itemIds: ['r3'] })] },
    });
    const d = decideById(dedup, view);
    expect(verdicts(dedup, view)).toMatchObject({ r1: 'keep', r2: 'keep', r3: 'eligible', r4: 'keep' });
    expect(at(d, 'r1').reason).toBe('output of protected tool todo');
  });

  it('leaves an errored older duplicate in place, as DCP replaces only completed outputs', () => {
    const view = makeView({
      items: [
        ...callAndResult(
          '1',
          1,
          'read',
          { path: 'a' },
          { content: 'ENOENT', status: { state: 'error', errorType: 'ENOENT', message: 'no such file' } },
        ),
        ...callAndResult('2', 2, 'read', { path: 'a' }, { content: 'now exists' }),
      ],
    });
    const d = decideById(dedup, view);
    expect(at(d, 'r1').verdict).toBe('keep');
    expect(at(d, 'r1').replacement).toBeUndefined();
  });
});
