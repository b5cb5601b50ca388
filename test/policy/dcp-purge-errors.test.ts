import { describe, expect, it } from 'vitest';
import {
  DCP_DEFAULT_PROTECTED_TOOLS,
  DCP_ERROR_INPUT_PLACEHOLDER,
  dcpPurgeErrors,
} from '../../src/policy/comparators/dcp-purge-errors.js';
import { at, callAndResult, condition, decideById, makeView, note, obligation, verdicts } from './build-view.js';

const dcp = condition('dcp-purge-errors');
const failed = {
  content: 'Error: oldString not found in src/pool.ts',
  status: { state: 'error', errorType: 'EditError', message: 'oldString not found', fields: {} },
};
/** One model step (a note of the model's) in each turn from `from` to `to`. */
const steps = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, k) => note(`n${from + k}`, from + k, 'next step'));
const args = {
  filePath: 'src/pool.ts',
  oldString: 'const POOL = 10;',
  newString: 'const POOL = 20;',
  replaceAll: false,
};

describe('dcp-purge-errors (comparator: DCP purge-errors, age only)', () => {
  it("is a rung-less comparator with DCP's default of 4 turns and its source named", () => {
    expect(dcp).toMatchObject({
      layer: 'comparator',
      rung: null,
      consultsObligations: false,
      upperRisk: false,
      parameters: { afterTurns: 4 },
    });
    expect(dcp.reference).toContain('purge-errors');
    expect(dcp.reference).toContain('7b0e2e8');
  });

  it('replaces the string inputs of a call that failed at least 4 turns ago and keeps its error output', () => {
    const view = makeView({ items: [...callAndResult('1', 1, 'edit_file', args, failed), ...steps(2, 5)] });
    const d = decideById(dcp, view);
    expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible', rule: 'dcp-purge-errors', rung: null, residue: ['tool'] });
    expect(at(d, 'c1').replacement).toBe(
      `edit_file {"filePath":"${DCP_ERROR_INPUT_PLACEHOLDER}","newString":"${DCP_ERROR_INPUT_PLACEHOLDER}","oldString":"${DCP_ERROR_INPUT_PLACEHOLDER}","replaceAll":false}`,
    );
    expect(at(d, 'c1').reason).toContain('4 model steps before the prune point');
    expect(at(d, 'r1')).toMatchObject({ verdict: 'keep' });
  });

  it('waits afterTurns, takes it as a parameter, and leaves successful calls alone', () => {
    const view = makeView({
      items: [
        ...callAndResult('2', 0, 'edit_file', args),
        ...callAndResult('1', 2, 'edit_file', args, failed),
        ...steps(3, 5),
      ],
    });
    expect(verdicts(dcp, view)).toMatchObject({ c1: 'keep', c2: 'keep', r2: 'keep' });
    expect(verdicts(dcpPurgeErrors({ afterTurns: 3 }), view)).toMatchObject({ c1: 'eligible', c2: 'keep' });
  });

  it("checks nothing but age: it purges an input a visible obligation needs (the risk it stands for), but not a protected tool's", () => {
    const items = [...callAndResult('1', 1, 'edit_file', args, failed), ...steps(2, 5)];
    const needed = makeView({ items, visible: { obligations: [obligation('o1', { strings: ['const POOL = 10;'] })] } });
    expect(verdicts(dcp, needed).c1).toBe('eligible');
    const guarded = makeView({ items, visible: { protectedTools: ['edit_file'] } });
    expect(verdicts(dcp, guarded).c1).toBe('keep');
  });

  it("counts model steps, not turns: the person's messages and the runtime's notices age nothing", () => {
    const user = (id: string, turn: number) => ({ id, turn, kind: 'instruction', origin: 'user', content: 'and?' });
    // Four turns pass, but only one of them holds a model step: the call failed one step ago.
    const quiet = makeView({
      items: [
        ...callAndResult('1', 1, 'edit_file', args, failed),
        user('u2', 2),
        user('u3', 3),
        user('u4', 4),
        note('n5', 5, 'ok'),
      ],
    });
    expect(verdicts(dcp, quiet).c1).toBe('keep');
    expect(decideById(dcp, quiet).get('c1')!.reason).toContain('failed 1 model steps before the prune point');
    // Four model steps in four turns: old enough.
    expect(
      verdicts(dcp, makeView({ items: [...callAndResult('1', 1, 'edit_file', args, failed), ...steps(2, 5)] })).c1,
    ).toBe('eligible');
  });

  describe("protected tools: DCP's defaults, and the configured ones added to them", () => {
    const oldFailure = (tool: string, protectedTools: string[] = []) =>
      makeView({ items: [...callAndResult('1', 1, tool, args, failed), ...steps(2, 5)], visible: { protectedTools } });

    it("keeps an old failed call of each of DCP's default protected tools, with none configured", () => {
      for (const tool of DCP_DEFAULT_PROTECTED_TOOLS) {
        const d = decideById(dcp, oldFailure(tool));
        expect(at(d, 'c1').verdict, tool).toBe('keep');
        expect(at(d, 'c1').reason, tool).toBe(
          `call of a protected tool: ${tool} is one of DCP's default protected tools`,
        );
      }
    });

    it('adds the configured tools to the defaults: a configured list protects its tools and unprotects none', () => {
      expect(verdicts(dcp, oldFailure('edit_file', ['edit_file'])).c1).toBe('keep');
      expect(at(decideById(dcp, oldFailure('edit_file', ['edit_file'])), 'c1').reason).toBe(
        'call of a protected tool: edit_file is a configured protected tool',
      );
      expect(verdicts(dcp, oldFailure('edit', ['bash'])).c1).toBe('keep');
    });

    it('matches a name exactly, as `protectedTools.includes` does: a look-alike of a default tool is purged', () => {
      for (const tool of ['edit_file', 'Edit', 'multiedit', 'write_file', 'subtask'])
        expect(verdicts(dcp, oldFailure(tool)).c1, tool).toBe('eligible');
    });
  });
});

// DCP's question rule (pruneToolInputs, lib/messages/prune.ts @ 7b0e2e8) acts only on completed parts, and
// purge-errors marks only errored ones, which pruneToolErrors purges whatever the tool: here a question is any tool.
describe('dcp-purge-errors: a question is purged like any failed call', () => {
  const asked = { questions: [{ header: 'Pool size', question: 'Which pool size?' }], title: 'pool' };

  it("replaces an old failed question's string inputs, leaves its questions list and keeps its error", () => {
    const dismissed = {
      content: 'dismissed',
      status: { state: 'error', errorType: 'Rejected', message: 'dismissed', fields: {} },
    };
    const d = decideById(
      dcp,
      makeView({ items: [...callAndResult('1', 1, 'question', asked, dismissed), ...steps(2, 5)] }),
    );
    expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible', residue: ['tool'] });
    expect(at(d, 'c1').replacement).toBe(
      `question {"questions":[{"header":"Pool size","question":"Which pool size?"}],"title":"${DCP_ERROR_INPUT_PLACEHOLDER}"}`,
    );
    expect(at(d, 'r1').verdict).toBe('keep');
  });

  it('never touches an answered question, however old', () => {
    const view = makeView({
      items: [...callAndResult('1', 1, 'question', asked, { content: 'User answered: 20' }), ...steps(2, 9)],
    });
    expect(verdicts(dcp, view)).toMatchObject({ c1: 'keep', r1: 'keep' });
  });
});
