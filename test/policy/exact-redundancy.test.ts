import { describe, expect, it } from 'vitest';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import {
  at,
  condition,
  decideById,
  fixtureObject,
  makeView,
  note,
  obligation,
  result,
  verdicts,
} from './build-view.js';

const er = condition('exact-redundancy');

describe('exact-redundancy (rung 0)', () => {
  it('keeps the latest of byte-identical tool results and makes the older copies eligible', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'same bytes'),
        result('r2', 2, 'same bytes'),
        result('r3', 3, 'other'),
        result('r4', 4, 'same bytes'),
      ],
    });
    const d = decideById(er, view);
    expect(verdicts(er, view)).toEqual({ r1: 'eligible', r2: 'eligible', r3: 'keep', r4: 'keep' });
    expect(at(d, 'r1').reason).toBe('same call, status and every content block as r4, the latest copy, which stays');
    expect(at(d, 'r1')).toMatchObject({ rule: 'exact-redundancy', rung: 0 });
    expect(at(d, 'r1').residue).toBeUndefined();
    expect(at(d, 'r4').reason).toBe('no rule establishes eligibility');
  });

  it('does not treat bytes that differ only in whitespace as identical', () => {
    const view = makeView({ items: [result('r1', 1, 'x\n'), result('r2', 2, 'x')] });
    expect(verdicts(er, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });

  it('applies only to tool results, not to identical user or model items', () => {
    const view = makeView({
      items: [note('n1', 1, 'repeat me'), note('n2', 2, 'repeat me'), result('r3', 3, 'repeat me')],
    });
    expect(verdicts(er, view)).toEqual({ n1: 'keep', n2: 'keep', r3: 'keep' });
  });

  it('keeps every protected copy and makes every unprotected copy eligible, even the latest', () => {
    const view = makeView({
      items: [result('r1', 1, 'dup'), result('r2', 2, 'dup'), result('r3', 3, 'dup'), result('r4', 4, 'dup')],
      visible: { pinned: ['r1'], pendingSteps: [{ id: 'ps1', description: 'use r3', references: ['r3'] }] },
    });
    const d = decideById(er, view);
    expect(verdicts(er, view)).toEqual({ r1: 'keep', r2: 'eligible', r3: 'keep', r4: 'eligible' });
    expect(at(d, 'r1')).toMatchObject({ rule: 'protection', reason: 'pinned by the runtime' });
    expect(at(d, 'r3').reason).toBe('referenced by pending step ps1');
    expect(at(d, 'r4').reason).toBe(
      'same call, status and every content block as r1 and r3, which all stay (excluded from removal)',
    );
  });

  it('gates on visible obligations by item id and by needed string, and lists what it consulted', () => {
    const view = makeView({
      items: [
        result('r1', 1, 'token=abc'),
        result('r2', 2, 'token=abc'),
        result('r3', 3, 'plain'),
        result('r4', 4, 'plain'),
      ],
      visible: { obligations: [obligation('ob1', { strings: ['token=abc'] }), obligation('ob2', { itemIds: ['r3'] })] },
    });
    const d = decideById(er, view);
    expect(verdicts(er, view)).toEqual({ r1: 'keep', r2: 'keep', r3: 'keep', r4: 'eligible' });
    expect(at(d, 'r1').reason).toBe('holds a string visible obligation ob1 needs');
    expect(at(d, 'r4').reason).toContain('r3');
    for (const e of er.decide(view)) expect(e.obligationsConsulted).toEqual(['ob1', 'ob2']);
  });
});

describe('exact-redundancy: identity of the whole observation', () => {
  const run = (
    id: string,
    turn: number,
    content: string,
    args: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => result(id, turn, content, { tool: { name: 'bash', arguments: args, callId: `call-${id}` }, ...extra });
  const failed = { state: 'error', errorType: 'NonZeroExit', message: 'exit 1' };
  const png = (hex: string) => [
    { type: 'text', text: 'screenshot' },
    { type: 'image', mediaType: 'image/png', sha256: hex.repeat(64) },
  ];

  it('refuses byte-identical text from two different commands', () => {
    const view = makeView({
      items: [run('r1', 1, 'OK', { cmd: 'npm test' }), run('r2', 2, 'OK', { cmd: 'npm run lint' })],
    });
    expect(verdicts(er, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });

  it('refuses an error and a success with the same text and call', () => {
    const view = makeView({
      items: [run('r1', 1, 'done', { cmd: 'make' }, { status: failed }), run('r2', 2, 'done', { cmd: 'make' })],
    });
    expect(verdicts(er, view)).toEqual({ r1: 'keep', r2: 'keep' });
  });

  it('refuses equal text when an image block differs, and removes when every block agrees', () => {
    const differ = makeView({
      items: [
        run('r1', 1, 'screenshot', { url: '/' }, { blocks: png('a') }),
        run('r2', 2, 'screenshot', { url: '/' }, { blocks: png('b') }),
      ],
    });
    expect(verdicts(er, differ)).toEqual({ r1: 'keep', r2: 'keep' });
    const same = makeView({
      items: [
        run('r1', 1, 'screenshot', { url: '/' }, { blocks: png('a') }),
        run('r2', 2, 'screenshot', { url: '/' }, { blocks: png('a') }),
      ],
    });
    expect(verdicts(er, same)).toEqual({ r1: 'eligible', r2: 'keep' });
  });

  it('refuses equal blocks shown with different text, and removes when the text agrees too', () => {
    // The schema does not bind `content` to the blocks, and `content` is what a model is shown: both must agree.
    const shot = (id: string, turn: number, caption: string) =>
      run(
        id,
        turn,
        caption,
        { url: '/' },
        { blocks: [{ type: 'image', mediaType: 'image/png', sha256: 'c'.repeat(64) }] },
      );
    expect(verdicts(er, makeView({ items: [shot('r1', 1, 'before fix'), shot('r2', 2, 'after fix')] }))).toEqual({
      r1: 'keep',
      r2: 'keep',
    });
    expect(verdicts(er, makeView({ items: [shot('r1', 1, 'after fix'), shot('r2', 2, 'after fix')] }))).toEqual({
      r1: 'eligible',
      r2: 'keep',
    });
  });

  it('removes the same call with identical output, ignoring argument key order', () => {
    const view = makeView({
      items: [run('r1', 1, 'v1.2', { cmd: 'node -v', cwd: '.' }), run('r2', 2, 'v1.2', { cwd: '.', cmd: 'node -v' })],
    });
    expect(verdicts(er, view)).toEqual({ r1: 'eligible', r2: 'keep' });
  });

  it('acts across calls only where the tool or the fixture declares repetition irrelevant, status still equal', () => {
    const items = [
      run('r1', 1, 'OK', { cmd: 'a' }),
      run('r2', 2, 'OK', { cmd: 'b' }),
      run('r3', 3, 'OK', { cmd: 'c' }, { status: failed }),
    ];
    const byTool = makeView({
      items,
      tools: [
        { name: 'bash', sideEffect: 'read-mutable', repetition: 'irrelevant' } as { name: string; sideEffect: string },
      ],
    });
    expect(verdicts(er, byTool)).toEqual({ r1: 'eligible', r2: 'keep', r3: 'keep' });
    expect(at(decideById(er, byTool), 'r1').reason).toContain('tool bash declares repetition irrelevant');
    const byFixture = buildView(
      Fixture.parse({ ...fixtureObject({ items }), repetition: 'irrelevant' }),
      'pp',
      (t) => t.length,
    );
    expect(verdicts(er, byFixture)).toEqual({ r1: 'eligible', r2: 'keep', r3: 'keep' });
    expect(at(decideById(er, byFixture), 'r1').reason).toContain('the fixture declares repetition irrelevant');
    const toolSaysMeaningful = buildView(
      Fixture.parse({
        ...fixtureObject({
          items,
          tools: [
            { name: 'bash', sideEffect: 'read-mutable', repetition: 'meaningful' } as {
              name: string;
              sideEffect: string;
            },
          ],
        }),
        repetition: 'irrelevant',
      }),
      'pp',
      (t) => t.length,
    );
    expect(verdicts(er, toolSaysMeaningful)).toEqual({ r1: 'keep', r2: 'keep', r3: 'keep' });
  });

  it('never pairs a tool result with a user or model item of the same text', () => {
    const view = makeView({ items: [run('r1', 1, 'OK', { cmd: 'a' }), note('n2', 2, 'OK')] });
    expect(verdicts(er, view)).toEqual({ r1: 'keep', n2: 'keep' });
  });
});
