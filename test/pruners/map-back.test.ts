// Rendering a prune point in each format and mapping a pruner's output back: identity keeps everything, removal,
// placeholders and truncation are read as such, and transformation, reordering and malformed output are refused
// with their codes, naming the fixture, prune point and message.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { PrunelabError } from '../../src/errors.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import { prunerCondition } from '../../src/policy/pruner.js';
import type { Eligibility } from '../../src/policy/types.js';
import { FORMATS } from '../../src/pruners/formats.js';
import { PRUNER_FORMATS, type PrunerFormat, type Rendered } from '../../src/pruners/types.js';
import { callAndResult, makeView } from '../policy/build-view.js';

type Msg = Record<string, unknown> & { role: string; content: unknown };
type Part = Record<string, unknown> & { type: string };

const tokens = tokenCounter();
const VIEWS: PolicyView[] = loadFixtures('fixtures/canonical', process.cwd())
  .filter((f) => ['cache-timing-defer', 'failed-call-residue', 'rule-rung0'].some((id) => f.fixture.id.startsWith(id)))
  .flatMap((f) => f.fixture.prunePoints.map((p) => buildView(f.fixture, p.id, tokens)));

function decide(view: PolicyView, format: PrunerFormat, prune: (messages: Msg[], r: Rendered) => unknown) {
  const condition = prunerCondition({
    name: 'test-pruner',
    version: '0.0.0',
    description: 'a pruner under test',
    reference: 'test',
    parameters: {},
    format,
    prune: (rendered) => prune(structuredClone(rendered.messages) as Msg[], rendered),
  });
  return condition.decide(view);
}

const isToolResult = (view: PolicyView, e: Eligibility) =>
  view.items.find((i) => i.id === e.itemId)!.kind === 'tool-result';

/** Every part of every message passed through `f` (null drops it); messages left empty are dropped. */
function mapParts(format: PrunerFormat, messages: Msg[], f: (part: Part, message: Msg) => Part | null): Msg[] {
  if (format === 'openai-chat') {
    return messages.flatMap((m) => {
      if (m.role === 'tool') {
        const out = f({ type: 'tool-result', text: m.content }, m);
        return out ? [{ ...m, content: out['text'] }] : [];
      }
      return [m];
    });
  }
  return messages.flatMap((m) => {
    if (!Array.isArray(m.content)) return [m];
    const parts = (m.content as Part[]).flatMap((p) => {
      const out = f(p, m);
      return out ? [out] : [];
    });
    return parts.length > 0 ? [{ ...m, content: parts }] : [];
  });
}

const isResultPart = (p: Part) => p.type === 'tool_result' || p.type === 'tool-result';

function withResultText(format: PrunerFormat, p: Part, text: (old: string) => string): Part {
  if (format === 'openai-chat') return { ...p, text: text(p['text'] as string) };
  if (format === 'anthropic-messages') return { ...p, content: text(p['content'] as string) };
  const output = p['output'] as { type: string; value: string };
  return { ...p, output: { ...output, value: text(output.value) } };
}

describe.each(PRUNER_FORMATS)('the %s format', (format) => {
  it('renders every item exactly once, each unit mapped to its item', () => {
    for (const view of VIEWS) {
      const rendered = FORMATS[format].render(view);
      const ids = [...rendered.itemOfUnit, ...rendered.beside];
      expect(ids.sort()).toEqual(view.items.map((i) => i.id).sort());
      expect(FORMATS[format].unitsOf(JSON.parse(JSON.stringify(rendered.messages)))).toEqual(rendered.units);
    }
  });

  it('keeps every item when the pruner returns what it was given (round trip, any JSON copy)', () => {
    for (const view of VIEWS) {
      const out = decide(view, format, (m) => JSON.parse(JSON.stringify(m)));
      expect(out.map((e) => e.verdict)).toEqual(view.items.map(() => 'keep'));
    }
  });

  it('reads a pruner that drops every tool result as removing exactly the tool results', () => {
    for (const view of VIEWS) {
      const out = decide(view, format, (m) => mapParts(format, m, (p) => (isResultPart(p) ? null : p)));
      for (const e of out) expect(e.verdict).toBe(isToolResult(view, e) ? 'eligible' : 'keep');
      expect(out.filter((e) => e.verdict === 'eligible').every((e) => e.replacement === undefined)).toBe(true);
    }
  });

  it('reads a placeholder left in a tool result slot as a replacement with that text', () => {
    const view = VIEWS[0]!;
    const out = decide(view, format, (m) =>
      mapParts(format, m, (p) => (isResultPart(p) ? withResultText(format, p, () => '[cleared]') : p)),
    );
    for (const e of out) {
      if (isToolResult(view, e)) expect(e).toMatchObject({ verdict: 'eligible', replacement: '[cleared]' });
      else expect(e.verdict).toBe('keep');
    }
  });

  it('reads a tool result cut to its first line plus a marker as truncated, the kept text its replacement', () => {
    const view = VIEWS[0]!;
    const cut = (s: string) => (s.includes('\n') ? `${s.slice(0, s.indexOf('\n'))}\n[truncated]` : s);
    const out = decide(view, format, (m) =>
      mapParts(format, m, (p) => (isResultPart(p) ? withResultText(format, p, cut) : p)),
    );
    const multiLine = view.items.filter((i) => i.kind === 'tool-result' && i.content.includes('\n'));
    expect(multiLine.length).toBeGreaterThan(0);
    for (const item of multiLine) {
      const e = out.find((d) => d.itemId === item.id)!;
      expect(e.verdict).toBe('eligible');
      expect(e.replacement).toBe(cut(item.content));
      expect(e.reason).toContain('cut it short');
    }
  });

  it('refuses a summarising pruner: its text is transformation, told with fixture, point and message index', () => {
    const view = VIEWS[0]!;
    const summarise = (m: Msg[]) => {
      const rendered = FORMATS[format].render(view);
      const text = view.items
        .map((i) => i.content)
        .join(' ')
        .slice(0, 400);
      const summary: Msg =
        format === 'openai-chat'
          ? { role: 'user', content: `Summary of the work so far: ${text}` }
          : { role: 'user', content: [{ type: 'text', text: `Summary of the work so far: ${text}` }] };
      return [...m.slice(0, 1), summary, ...m.slice(rendered.messages.length - 1)];
    };
    try {
      decide(view, format, summarise);
      expect.unreachable('a summary must be refused');
    } catch (err) {
      expect(err).toBeInstanceOf(PrunelabError);
      expect((err as PrunelabError).code).toBe('PL_PRUNER_TRANSFORMATION');
      expect((err as Error).message).toContain(`${view.fixtureId} at ${view.prunePoint.id}: message 1`);
      expect((err as Error).message).toContain('transformation');
    }
  });

  it('refuses a tool result rewritten into a summary of itself, in its own slot', () => {
    const view = VIEWS[0]!;
    const rewrite = (s: string) => `In short: ${s.split(/\s+/).slice(0, 6).join(' ')} and more`;
    expect(() =>
      decide(view, format, (m) =>
        mapParts(format, m, (p) => (isResultPart(p) ? withResultText(format, p, rewrite) : p)),
      ),
    ).toThrow(/transformation/);
  });

  it('refuses reordering', () => {
    const view = VIEWS[0]!;
    try {
      decide(view, format, (m) => [m[1]!, m[0]!, ...m.slice(2)]);
      expect.unreachable('reordering must be refused');
    } catch (err) {
      expect((err as PrunelabError).code).toBe('PL_PRUNER_REORDERED');
    }
  });

  it('refuses output that is not messages of the format, naming the message', () => {
    const view = VIEWS[0]!;
    expect(() => decide(view, format, (m) => [...m.slice(0, 2), { text: 'no role' }])).toThrow(
      /is not .* messages \(message 2: /,
    );
    expect(() => decide(view, format, () => 'not an array')).toThrow(/the whole output/);
  });

  it('maps any removal of messages back to exactly the items those messages held (property)', () => {
    const view = VIEWS[0]!;
    const rendered = FORMATS[format].render(view);
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: rendered.messages.length, maxLength: rendered.messages.length }),
        (keep) => {
          const out = decide(view, format, (m) => m.filter((_, i) => keep[i]));
          const removed = new Set(rendered.units.flatMap((u, i) => (keep[u.message] ? [] : [rendered.itemOfUnit[i]!])));
          for (const e of out) expect(e.verdict).toBe(removed.has(e.itemId) ? 'eligible' : 'keep');
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('mapping details', () => {
  const twoReads = makeView({
    items: [
      { id: 'u1', turn: 0, origin: 'user', content: 'fix the bug' },
      ...callAndResult('1', 1, 'read_file', { path: 'a.py' }, { content: 'same text' }),
      { id: 'm1', turn: 2, origin: 'model', kind: 'reasoning', content: 'same thought' },
      { id: 'm2', turn: 3, origin: 'model', kind: 'reasoning', content: 'same thought' },
    ],
  });

  it('keeps the later of two identical texts when one of them goes (the older is the one removed)', () => {
    const out = decide(twoReads, 'openai-chat', (m) => m.filter((_, i) => i !== 3));
    expect(out.find((e) => e.itemId === 'm1')!.verdict).toBe('eligible');
    expect(out.find((e) => e.itemId === 'm2')!.verdict).toBe('keep');
  });

  it('reports a result kept without its call, on the result', () => {
    const out = decide(twoReads, 'openai-chat', (m) => m.filter((msg) => !('tool_calls' in msg)));
    expect(out.find((e) => e.itemId === 'c1')!.verdict).toBe('eligible');
    expect(out.find((e) => e.itemId === 'r1')!.reason).toContain('without its call c1');
  });

  it('refuses a tool call the input does not have', () => {
    expect(() =>
      decide(twoReads, 'openai-chat', (m) => [
        ...m,
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'new', type: 'function', function: { name: 'x', arguments: '{}' } }],
        },
      ]),
    ).toThrow(/id new, which the input does not have/);
  });

  it('refuses two messages merged into one', () => {
    expect(() =>
      decide(twoReads, 'openai-chat', (m) => [
        { role: 'user', content: `${m[0]!.content as string}\n${m[3]!.content as string}` },
        ...m.slice(1, 3),
      ]),
    ).toThrow(/transformation/);
  });

  it('keeps anthropic-messages system items beside the array, where the pruner cannot reach them', () => {
    const view = makeView({
      items: [
        { id: 's1', turn: 0, origin: 'system', content: 'you are an agent' },
        { id: 'u1', turn: 0, origin: 'user', content: 'go' },
      ],
    });
    const rendered = FORMATS['anthropic-messages'].render(view);
    expect(rendered.system).toEqual([{ type: 'text', text: 'you are an agent' }]);
    const out = decide(view, 'anthropic-messages', () => []);
    expect(out.map((e) => e.verdict)).toEqual(['keep', 'eligible']);
  });

  it('renders a failed call result as an error in the formats that have one', () => {
    const view = makeView({
      items: callAndResult(
        '1',
        1,
        'run',
        { cmd: 'make' },
        {
          content: 'boom',
          status: { state: 'error', errorType: 'exit', message: 'exit 2' },
        },
      ),
    });
    expect(JSON.stringify(FORMATS['anthropic-messages'].render(view).messages)).toContain('"is_error":true');
    expect(JSON.stringify(FORMATS['ai-sdk'].render(view).messages)).toContain('"error-text"');
  });
});
