import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DCP_DEFAULT_PROTECTED_TOOLS,
  DCP_ERROR_INPUT_PLACEHOLDER,
} from '../../src/policy/comparators/dcp-purge-errors.js';
import {
  DCP_PLACEHOLDER,
  DCP_QUESTION_INPUT_PLACEHOLDER,
  dedupKey,
} from '../../src/policy/comparators/same-tool-args-dedup.js';
import { at, callAndResult, condition, decideById, makeView, note, obligation, verdicts } from './build-view.js';

const dedup = condition('same-tool-args-dedup');
const failedStatus = { state: 'error', errorType: 'ENOENT', message: 'no such file', fields: {} };
/** One model step (a note of the model's) in each turn from `from` to `to`. */
const steps = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => note(`n${from + k}`, from + k, 'next step'));

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
    for (const id of ['r1', 'r2', 'r3', 'c1', 'c2', 'c3']) expect(at(d, id).reason, id).not.toContain('hunter2');
    // A failed duplicate's call is purged: neither its reason nor what replaces it holds the typed secret.
    const failedFirst = makeView({
      items: [
        ...callAndResult('1', 1, 'bash', { command: typed }, { content: 'boom', status: failedStatus }),
        ...callAndResult('2', 2, 'bash', { command: typed }, { content: 'ok' }),
      ],
    });
    const f = decideById(dedup, failedFirst);
    expect(at(f, 'c1').verdict).toBe('eligible');
    expect(at(f, 'c1').reason).not.toContain('hunter2');
    expect(at(f, 'c1').replacement).not.toContain('hunter2');
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
    expect(at(d, 'r1').reason).toBe('output of a protected tool: todo is a configured protected tool');
  });

  it("protects DCP's default tools with none configured, adds a configured list to them, and matches names exactly", () => {
    const twice = (tool: string, protectedTools: string[] = []) =>
      makeView({
        items: [
          ...callAndResult('1', 1, tool, { id: 'x' }, { content: 'a' }),
          ...callAndResult('2', 2, tool, { id: 'x' }, { content: 'b' }),
        ],
        visible: { protectedTools },
      });
    for (const tool of DCP_DEFAULT_PROTECTED_TOOLS) {
      expect(verdicts(dedup, twice(tool)).r1, tool).toBe('keep');
      expect(at(decideById(dedup, twice(tool)), 'r1').reason, tool).toBe(
        `output of a protected tool: ${tool} is one of DCP's default protected tools`,
      );
    }
    // A configured list adds to the defaults and does not replace them.
    expect(verdicts(dedup, twice('todowrite', ['todo'])).r1).toBe('keep');
    expect(verdicts(dedup, twice('todo', ['todo'])).r1).toBe('keep');
    for (const tool of ['edit_file', 'Edit', 'write_file', 'subtask'])
      expect(verdicts(dedup, twice(tool)).r1, tool).toBe('eligible');
  });

  // DCP marks a failed duplicate like any other, and pruneToolErrors purges the string inputs of every marked failed
  // part: no purgeErrors.turns wait applies.
  describe('an earlier failed duplicate: its string inputs go at once, its error stays', () => {
    const args = { path: 'a', encoding: 'utf8', limit: 20 };
    const failedThen = (later: Record<string, unknown>, gap = 1) =>
      makeView({
        items: [
          ...callAndResult('1', 1, 'read', args, { content: 'ENOENT', status: failedStatus }),
          ...callAndResult('2', 1 + gap, 'read', { limit: 20, encoding: 'utf8', path: 'a' }, later),
        ],
      });

    it("replaces the call's string inputs with DCP's error marker and keeps its error output", () => {
      const d = decideById(dedup, failedThen({ content: 'now exists' }));
      expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible', rule: 'same-tool-args-dedup', residue: ['tool'] });
      expect(at(d, 'c1').replacement).toBe(
        `read {"encoding":"${DCP_ERROR_INPUT_PLACEHOLDER}","limit":20,"path":"${DCP_ERROR_INPUT_PLACEHOLDER}"}`,
      );
      expect(at(d, 'c1').reason).toContain('r2 repeats its tool (read) and arguments');
      expect(at(d, 'r1').verdict).toBe('keep');
      expect(at(d, 'r1').replacement).toBeUndefined();
    });

    it('waits for nothing: the same model step, or a later call that failed too', () => {
      expect(verdicts(dedup, failedThen({ content: 'now exists' }, 0)).c1).toBe('eligible');
      const bothFailed = failedThen({ content: 'ENOENT', status: failedStatus });
      expect(verdicts(dedup, bothFailed)).toMatchObject({ c1: 'eligible', r1: 'keep', c2: 'keep', r2: 'keep' });
    });

    it('checks no obligation, as DCP does not', () => {
      const view = makeView({
        items: [
          ...callAndResult('1', 1, 'read', args, { content: 'ENOENT', status: failedStatus }),
          ...callAndResult('2', 2, 'read', args, { content: 'now exists' }),
        ],
        visible: { obligations: [obligation('o1', { strings: ['utf8'] })] },
      });
      expect(verdicts(dedup, view).c1).toBe('eligible');
    });

    it('keeps the call of the latest failure, of a completed duplicate, and of a failure nothing repeats', () => {
      const view = makeView({
        items: [
          ...callAndResult('1', 1, 'read', { path: 'b' }, { content: 'old' }),
          ...callAndResult('2', 2, 'read', { path: 'b' }, { content: 'new' }),
          ...callAndResult('3', 3, 'read', { path: 'c' }, { content: 'ENOENT', status: failedStatus }),
          ...steps(4, 9),
        ],
      });
      const d = decideById(dedup, view);
      expect(verdicts(dedup, view)).toMatchObject({ c1: 'keep', r1: 'eligible', c2: 'keep', c3: 'keep', r3: 'keep' });
      expect(at(d, 'c1').reason).toBe('a call whose output is a completed duplicate: DCP replaces the output only');
      expect(at(d, 'c3').reason).toBe('a call whose output is not an earlier duplicate');
    });

    it('keeps a failed duplicate that has no string input, or whose tool is protected', () => {
      const numeric = makeView({
        items: [
          ...callAndResult('1', 1, 'seek', { offset: 3 }, { content: 'EINVAL', status: failedStatus }),
          ...callAndResult('2', 2, 'seek', { offset: 3 }, { content: 'ok' }),
        ],
      });
      expect(verdicts(dedup, numeric).c1).toBe('keep');
      expect(at(decideById(dedup, numeric), 'c1').reason).toBe(
        'failed duplicate of r2, but has no string input to purge',
      );
      for (const [tool, protectedTools] of [
        ['edit', []],
        ['read', ['read']],
      ] as const) {
        const view = makeView({
          items: [
            ...callAndResult('1', 1, tool, args, { content: 'E', status: failedStatus }),
            ...callAndResult('2', 2, tool, args, { content: 'ok' }),
          ],
          visible: { protectedTools: [...protectedTools] },
        });
        expect(verdicts(dedup, view), tool).toMatchObject({ c1: 'keep', r1: 'keep' });
        expect(at(decideById(dedup, view), 'c1').reason, tool).toMatch(/^call of a protected tool: /);
      }
    });
  });
});

// OpenCode's question tool asks the user; its output holds the answers. DCP v1.2.3 (lib/messages/prune.ts @ 7b0e2e8)
// keeps a marked question's output and replaces its `questions` input instead (pruneToolInputs), for a completed
// part; an errored one is purged by pruneToolErrors as any other.
describe("same-tool-args-dedup: a duplicated question keeps the user's answers and loses its questions", () => {
  const asked = {
    questions: [{ header: 'Pool size', question: 'Which pool size?', options: [{ label: '10' }, { label: '20' }] }],
  };
  const twice = (args: Record<string, unknown>, first: Record<string, unknown> = { content: 'User answered: 20' }) =>
    makeView({
      items: [
        ...callAndResult('1', 1, 'question', args, first),
        ...callAndResult('2', 2, 'question', args, { content: 'User answered: 10' }),
      ],
    });

  it("keeps the earlier question's output and replaces its call's questions input with DCP's marker", () => {
    const d = decideById(dedup, twice({ ...asked, title: 'pool' }));
    expect(at(d, 'r1').verdict).toBe('keep');
    expect(at(d, 'r1').reason).toContain("DCP keeps it and replaces its call's questions");
    expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible', residue: ['tool'] });
    // The other inputs stay as they were; only the questions go.
    expect(at(d, 'c1').replacement).toBe(`question {"questions":"${DCP_QUESTION_INPUT_PLACEHOLDER}","title":"pool"}`);
    expect(at(d, 'c1').replacement).not.toContain('Which pool size?');
    expect(at(d, 'c1').reason).not.toContain('Which pool size?');
  });

  it('replaces questions held as null, as DCP tests only for undefined, and nothing when the input has none', () => {
    expect(at(decideById(dedup, twice({ questions: null })), 'c1')).toMatchObject({
      verdict: 'eligible',
      replacement: `question {"questions":"${DCP_QUESTION_INPUT_PLACEHOLDER}"}`,
    });
    expect(verdicts(dedup, twice({ title: 'pool' }))).toEqual({ c1: 'keep', r1: 'keep', c2: 'keep', r2: 'keep' });
  });

  it('over any inputs: the output stays, and the call goes exactly when it holds questions, with only them replaced', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string()));
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('questions', 'title', 'path', 'multiple'), value), (args) => {
        const d = decideById(dedup, twice(args));
        expect(at(d, 'r1').verdict).toBe('keep');
        const c1 = at(d, 'c1');
        expect(c1.verdict).toBe('questions' in args ? 'eligible' : 'keep');
        if (c1.verdict === 'eligible')
          expect(JSON.parse(c1.replacement!.slice('question '.length))).toEqual({
            ...args,
            questions: DCP_QUESTION_INPUT_PLACEHOLDER,
          });
      }),
      { numRuns: 200 },
    );
  });

  it('still leaves the latest question whole, replaces the output of any other tool, and matches the name exactly', () => {
    expect(verdicts(dedup, twice(asked))).toMatchObject({ c2: 'keep', r2: 'keep' });
    for (const tool of ['Question', 'question_user', 'ask']) {
      const view = makeView({
        items: [
          ...callAndResult('1', 1, tool, asked, { content: 'User answered: 20' }),
          ...callAndResult('2', 2, tool, asked, { content: 'User answered: 10' }),
        ],
      });
      expect(verdicts(dedup, view), tool).toEqual({ c1: 'keep', r1: 'eligible', c2: 'keep', r2: 'keep' });
      expect(at(decideById(dedup, view), 'r1').replacement, tool).toBe(DCP_PLACEHOLDER);
    }
  });

  it("purges a failed question's string inputs as any failed duplicate's, leaving its questions list, and skips a protected one", () => {
    const failed = { content: 'dismissed', status: failedStatus };
    const d = decideById(dedup, twice({ ...asked, title: 'pool' }, failed));
    expect(at(d, 'r1').verdict).toBe('keep');
    expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible', residue: ['tool'] });
    expect(at(d, 'c1').replacement).toContain(`"title":"${DCP_ERROR_INPUT_PLACEHOLDER}"`);
    expect(at(d, 'c1').replacement).toContain('Which pool size?');
    const guarded = makeView({
      items: [
        ...callAndResult('1', 1, 'question', asked, { content: 'User answered: 20' }),
        ...callAndResult('2', 2, 'question', asked, { content: 'User answered: 10' }),
      ],
      visible: { protectedTools: ['question'] },
    });
    expect(verdicts(dedup, guarded)).toEqual({ c1: 'keep', r1: 'keep', c2: 'keep', r2: 'keep' });
  });
});
