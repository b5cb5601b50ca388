import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { erroredInputResidue } from '../../src/policy/mechanisms/errored-input-residue.js';
import { at, callAndResult, condition, decideById, makeView, note, obligation, verdicts } from './build-view.js';

const eir = condition('errored-input-residue');
const failure = (fields: Record<string, string> = {}, extra: Record<string, unknown> = {}) => ({
  content: 'Traceback (most recent call last):\n  ... 400 lines ...\nSyntaxError: invalid syntax',
  status: { state: 'error', errorType: 'SyntaxError', message: 'invalid syntax', fields, ...extra },
});
const synthesized = (fields: Record<string, string> = {}) => ({
  content: 'billing/export.py:88:101: E501 line too long (131 > 100 characters)\nFound 1 error.',
  status: { state: 'error', errorType: 'NonZeroExit', message: 'exit code 1', synthesized: true, fields },
});

describe('errored-input-residue (rung 2: bulk checked against the visible state)', () => {
  it('reduces a failed call and its result to the recorded residue, with no age threshold', () => {
    const view = makeView({
      items: [...callAndResult('1', 5, 'run', { cmd: 'python x.py' }, failure({ line: '12', exitCode: '1' }))],
    });
    const d = decideById(eir, view);
    expect(eir.parameters).toEqual({});
    expect(eir.version).toBe('3.7.0'); // mechanism 2.7.0, major raised once for the gate
    expect(at(d, 'r1')).toMatchObject({ verdict: 'eligible', rule: 'errored-input-residue', rung: 2 });
    expect(at(d, 'r1').residue).toEqual(['tool', 'errorType', 'message', 'fields.exitCode', 'fields.line']);
    expect(at(d, 'r1').reason).toBe(
      'run result errored (SyntaxError: invalid syntax); no visible obligation string or referenced id is in its bulk: ' +
        'the payload goes, tool, errorType, message, fields.exitCode, fields.line stay',
    );
    expect(at(d, 'c1')).toMatchObject({ verdict: 'eligible' });
    expect(at(d, 'c1').residue).toEqual(['tool', 'errorType', 'message', 'fields.exitCode', 'fields.line']);
    expect(at(d, 'c1').reason).toContain('the arguments go');
  });

  it('keeps ok results of any age', () => {
    const view = makeView({ items: [...callAndResult('1', 1, 'run', { cmd: 'ok' }), note('n9', 9, 'now')] });
    expect(verdicts(eir, view)).toEqual({ c1: 'keep', r1: 'keep', n9: 'keep' });
  });

  it('abstains when the message was synthesized by the importer and nothing else was recorded', () => {
    const view = makeView({ items: [...callAndResult('1', 1, 'bash', { command: 'make lint' }, synthesized())] });
    const d = decideById(eir, view);
    for (const id of ['c1', 'r1']) {
      expect(at(d, id).verdict).toBe('abstain');
      expect(at(d, id).reason).toContain('message synthesized by the importer');
      expect(at(d, id).reason).toContain('no structured field was recorded');
      expect(at(d, id).residue).toBeUndefined();
    }
  });

  it('reduces a failure whose message was synthesized but whose fields were recorded, keeping the fields and not the message', () => {
    const view = makeView({
      items: [...callAndResult('1', 1, 'bash', { command: 'make lint' }, synthesized({ exitCode: '1' }))],
    });
    const d = decideById(eir, view);
    expect(at(d, 'r1').verdict).toBe('eligible');
    expect(at(d, 'r1').residue).toEqual(['tool', 'errorType', 'fields.exitCode']);
  });

  it('refuses bulk holding a string a visible obligation needs, without relying on the gate', () => {
    const items = callAndResult(
      '1',
      1,
      'run',
      { cmd: 'alembic upgrade head' },
      {
        content: 'psycopg2.errors.UniqueViolation: could not create unique index "uq_invoice_number_tenant"',
        status: {
          state: 'error',
          errorType: 'UniqueViolation',
          message: 'could not create unique index',
          fields: { sqlstate: '23505' },
        },
      },
    );
    const view = makeView({
      items,
      visible: { obligations: [obligation('o-index', { strings: ['uq_invoice_number_tenant'] })] },
    });
    // The mechanism alone (no gate in front) keeps the result, saying why; the call's arguments hold nothing needed.
    const findings = erroredInputResidue().assess(view, ['c1', 'r1']);
    const found = new Map(findings.map((f) => [f.itemId, f.outcome]));
    expect(found.get('r1')).toBe('keep');
    expect(findings.find((f) => f.itemId === 'r1')).toMatchObject({
      reason: expect.stringContaining(
        'its bulk is kept: its bulk holds "uq_invoice_number_tenant", which visible obligation o-index needs',
      ),
      consulted: ['o-index'],
    });
    expect(found.get('c1')).toBe('eligible');
    expect(verdicts(eir, view)).toMatchObject({ r1: 'keep', c1: 'eligible' });
  });

  it('refuses the bulk of either half of a failed call that a pending step references, by item id or call id', () => {
    const items = callAndResult(
      '1',
      1,
      'deploy',
      { image: 'registry/payments:sha-4be91c0' },
      failure({ status: '409' }),
    );
    for (const references of [['c1'], ['r1'], ['call-1']]) {
      const view = makeView({
        items,
        visible: { pendingSteps: [{ id: 'ps1', description: 'retry the deploy', references }] },
      });
      const found = erroredInputResidue().assess(view, ['c1', 'r1']);
      expect(
        found.map((f) => [f.itemId, f.outcome]),
        JSON.stringify(references),
      ).toEqual([
        ['c1', 'keep'],
        ['r1', 'keep'],
      ]);
      expect(found[0]!.reason, JSON.stringify(references)).toContain('pending step ps1 references');
    }
  });

  it('refuses bulk that names an id a pending step or visible obligation references', () => {
    const items = [
      note('rel-8f2c', 0, 'release rel-8f2c is the one to cancel'),
      ...callAndResult('1', 1, 'deploy', { image: 'sha-4be91c0' }, failure({ status: '409' }, {}), {}),
    ];
    items[2]!.content = 'HTTP 409 Conflict: release rel-8f2c is still rolling out';
    const view = makeView({
      items,
      visible: { pendingSteps: [{ id: 'ps1', description: 'cancel the release', references: ['rel-8f2c'] }] },
    });
    const found = new Map(
      erroredInputResidue()
        .assess(view, ['c1', 'r1'])
        .map((f) => [f.itemId, f.outcome]),
    );
    expect(found.get('r1')).toBe('keep');
    expect(found.get('c1')).toBe('eligible');
    // A longer id that merely contains the referenced one is not a mention.
    const other = makeView({
      items: items.map((i) => (i.id === 'r1' ? { ...i, content: 'release rel-8f2c9 is still rolling out' } : i)),
      visible: { pendingSteps: [{ id: 'ps1', description: 'cancel the release', references: ['rel-8f2c'] }] },
    });
    expect(
      erroredInputResidue()
        .assess(other, ['r1'])
        .map((f) => f.outcome),
    ).toEqual(['eligible']);
  });

  it('counts an id that punctuation ends as named (a sentence, a log prefix, a path), and not one a longer word holds', () => {
    const verdictFor = (content: string) => {
      const items = [
        note('rel-204', 0, 'release rel-204 is the one to cancel'),
        ...callAndResult('1', 1, 'deploy', { image: 'sha-4be91c0' }, failure({ status: '409' }, {}), {}),
      ];
      items[2]!.content = content;
      const view = makeView({
        items,
        visible: { pendingSteps: [{ id: 'ps1', description: 'cancel the release', references: ['rel-204'] }] },
      });
      return erroredInputResidue()
        .assess(view, ['r1'])
        .map((f) => f.outcome);
    };
    for (const named of [
      'HTTP 409: still rolling out rel-204.',
      'rel-204: lock held by deploy-7',
      'see releases/rel-204/status',
      'conflict on rel-204.1',
      'rel-204',
    ])
      expect(verdictFor(named), named).toEqual(['keep']);
    for (const other of ['still rolling out rel-2040.', 'prel-204: lock held', 'rel-204_old is another id'])
      expect(verdictFor(other), other).toEqual(['eligible']);
  });

  it('property: never finds eligible an item whose bulk holds a visible obligation string', () => {
    const word = fc.stringMatching(/^[a-z0-9_.:]{3,12}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 6 }),
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        (payloadWords, needed, synth, withFields) => {
          const status = {
            state: 'error',
            errorType: 'BuildError',
            message: synth ? 'exit code 2' : 'build failed',
            fields: withFields ? { exitCode: '2' } : {},
            ...(synth ? { synthesized: true } : {}),
          };
          const items = callAndResult(
            '1',
            1,
            'build',
            { target: payloadWords.join(' ') },
            { content: payloadWords.join('\n'), status },
          );
          const view = makeView({ items, visible: { obligations: [obligation('o1', { strings: needed })] } });
          for (const f of erroredInputResidue().assess(view, ['c1', 'r1'])) {
            if (f.outcome !== 'eligible') continue;
            const item = view.items.find((i) => i.id === f.itemId)!;
            // A result's bulk is its rendered payload; a call's is its text and its arguments (keys included).
            const bulk =
              item.kind === 'tool-call' ? [item.content, JSON.stringify(item.tool?.arguments ?? {})] : [item.content];
            expect(
              needed.some((s) => bulk.some((t) => t.includes(s))),
              `${f.itemId} ${JSON.stringify(needed)}`,
            ).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
