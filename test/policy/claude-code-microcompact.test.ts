import { describe, expect, it } from 'vitest';
import {
  MICROCOMPACT_DEFAULTS,
  MICROCOMPACT_PLACEHOLDER,
  idleMinutes,
} from '../../src/policy/comparators/claude-code-microcompact.js';
import { Fixture } from '../../src/fixture/schema.js';
import { buildView } from '../../src/fixture/view.js';
import {
  at,
  callAndResult,
  condition,
  decideById,
  fixtureObject,
  makeView,
  note,
  result,
  type ItemSpec,
  verdicts,
} from './build-view.js';

const microcompact = condition('claude-code-microcompact');

/** Seven call/result pairs one minute apart from 10:00, and a prune point `idle` minutes after the last one. */
function viewIdle(idle: number, extra: ItemSpec[] = []) {
  const items = [
    ...Array.from({ length: 7 }, (_, i) =>
      callAndResult(String(i + 1), i, 'read', { p: `f${i}` }, { content: 'x' }),
    ).flat(),
    ...extra,
  ];
  const raw = fixtureObject({ items, turn: 7 }) as { prunePoints: { time: string }[] };
  raw.prunePoints[0]!.time = new Date(Date.UTC(2026, 2, 4, 10, 6 + idle)).toISOString();
  return buildView(Fixture.parse(raw), 'pp', (t) => t.length);
}

describe('claude-code-microcompact', () => {
  it('pins the public defaults and placeholder', () => {
    expect(MICROCOMPACT_DEFAULTS).toEqual({ gapMinutes: 60, keepRecent: 5 });
    expect(MICROCOMPACT_PLACEHOLDER).toBe('[Old tool result content cleared]');
    expect(microcompact.parameters).toEqual({ gapMinutes: 60, keepRecent: 5 });
  });

  it('clears nothing after an idle gap of 59 minutes', () => {
    const view = viewIdle(59);
    expect(idleMinutes(view)).toBe(59);
    expect(microcompact.decide(view).every((e) => e.verdict === 'keep')).toBe(true);
  });

  it('after 61 idle minutes keeps the 5 most recent tool results and clears the older ones, calls kept', () => {
    const d = decideById(microcompact, viewIdle(61));
    expect(at(d, 'r1').verdict).toBe('eligible');
    expect(at(d, 'r2').verdict).toBe('eligible');
    for (const n of [3, 4, 5, 6, 7]) expect(at(d, `r${n}`).verdict).toBe('keep');
    for (const n of [1, 2, 3, 4, 5, 6, 7]) expect(at(d, `c${n}`).verdict).toBe('keep');
    expect(at(d, 'r1').replacement).toBe('[Old tool result content cleared]');
  });

  it('measures the gap from the last assistant message, not from a later user message', () => {
    // A user message 30 minutes before the prune point does not reset the idle time since the last request.
    const late: ItemSpec = {
      id: 'u',
      turn: 7,
      kind: 'instruction',
      origin: 'user',
      content: 'back',
      time: '2026-03-04T10:37:00Z',
    };
    const view = viewIdle(61, [late]);
    expect(idleMinutes(view)).toBe(61);
    expect(decideById(microcompact, view).get('r1')?.verdict).toBe('eligible');
  });
});

describe('claude-code-microcompact with no assistant message', () => {
  it('clears nothing: the idle time is measured from the last answer, and there is none', () => {
    const items = Array.from({ length: 7 }, (_, i) => result(`r${i + 1}`, i, `output ${i + 1}`));
    const none = makeView({ items, turn: 63 });
    expect(idleMinutes(none)).toBeNull();
    expect(Object.values(verdicts(condition('claude-code-microcompact'), none)).every((v) => v === 'keep')).toBe(true);
    const answered = makeView({ items: [...items, note('n8', 0, 'looking')], turn: 63 });
    expect(verdicts(condition('claude-code-microcompact'), answered)).toMatchObject({ r1: 'eligible', r2: 'eligible' });
  });
});
