// The real npm pruners, run as shipped on canonical fixtures: each condition's mapped decisions are checked against
// what the package itself returns when called directly on the same rendering (pruneMessages synchronously,
// trimMessages awaited), and their declared defaults are pinned.
import {
  trimMessages,
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import { type ModelMessage, pruneMessages } from 'ai';
import { describe, expect, it } from 'vitest';
import { tokenCounter } from '../../src/accounting/tokens.js';
import { buildView, type PolicyView } from '../../src/fixture/view.js';
import { loadFixtures } from '../../src/load/fixtures.js';
import {
  definition as aiDefinition,
  PKG_AI_PRUNE_MESSAGES,
} from '../../src/policy/comparators/pkg-ai-prune-messages.js';
import {
  definition as lcDefinition,
  PKG_LANGCHAIN_TRIM_MESSAGES,
} from '../../src/policy/comparators/pkg-langchain-trim-messages.js';
import { getCondition } from '../../src/policy/registry.js';
import { AI_PRUNE_OPTIONS } from '../../src/pruners/ai-prune-messages.js';
import { FORMATS } from '../../src/pruners/formats.js';
import { messageTokens, TRIM_OPTIONS } from '../../src/pruners/langchain-trim-messages.js';

const tokens = tokenCounter();
const fixtures = loadFixtures('fixtures/canonical', process.cwd()).filter((f) =>
  ['cache-timing-prune-now', 'completed-work-test-id', 'rule-rung0'].some((id) => f.fixture.id.startsWith(id)),
);
const VIEWS: PolicyView[] = fixtures.flatMap((f) =>
  f.fixture.prunePoints.map((p) => buildView(f.fixture, p.id, tokens)),
);

/** The view with a budget small enough that trimming must drop something. */
const tight = (view: PolicyView, share: number): PolicyView => ({
  ...view,
  prunePoint: { ...view.prunePoint, budgetTokens: Math.max(1, Math.floor(view.contextTokens * share)) },
});

describe('pkg-ai-prune-messages (ai pruneMessages, as shipped)', () => {
  it('declares the package, its version and the options it passes', () => {
    expect(aiDefinition.parameters).toMatchObject({
      reasoning: 'before-last-message',
      toolCalls: 'before-last-2-messages',
      emptyMessages: 'remove',
      package: 'ai@6.0.333',
      format: 'ai-sdk',
    });
    expect(aiDefinition.reference).toContain('prune-messages.ts');
  });

  it("decides, item by item, exactly what the package's own output keeps", () => {
    const condition = getCondition(PKG_AI_PRUNE_MESSAGES)!;
    let removed = 0;
    for (const view of VIEWS) {
      const rendered = FORMATS['ai-sdk'].render(view);
      const direct = pruneMessages({
        messages: structuredClone(rendered.messages) as ModelMessage[],
        ...AI_PRUNE_OPTIONS,
      });
      const kept = new Set(FORMATS['ai-sdk'].unitsOf(direct).map((u) => `${u.kind}|${u.callId ?? ''}|${u.text}`));
      const out = condition.decide(view);
      rendered.units.forEach((u, i) => {
        const e = out.find((d) => d.itemId === rendered.itemOfUnit[i])!;
        expect(e.verdict).toBe(kept.has(`${u.kind}|${u.callId ?? ''}|${u.text}`) ? 'keep' : 'eligible');
      });
      removed += out.filter((e) => e.verdict === 'eligible').length;
    }
    // Both sides: it removes older tool traffic and keeps the rest.
    expect(removed).toBeGreaterThan(0);
    expect(VIEWS.every((v) => condition.decide(v).some((e) => e.verdict === 'keep'))).toBe(true);
  });

  it('keeps every user message, the tool traffic of the last two messages and the reasoning of the last', () => {
    const condition = getCondition(PKG_AI_PRUNE_MESSAGES)!;
    for (const view of VIEWS) {
      const rendered = FORMATS['ai-sdk'].render(view);
      const last = rendered.messages.length - 2;
      const out = condition.decide(view);
      rendered.units.forEach((u, i) => {
        const e = out.find((d) => d.itemId === rendered.itemOfUnit[i])!;
        const recent = u.kind === 'reasoning' ? u.message === last + 1 : u.message >= last;
        if (u.role === 'user' || u.role === 'system' || recent) expect(e.verdict).toBe('keep');
      });
    }
  });
});

function toLangChain(messages: readonly unknown[]): BaseMessage[] {
  return (messages as Record<string, unknown>[]).map((m, i) => {
    const id = String(i);
    const content = typeof m['content'] === 'string' ? m['content'] : '';
    if (m['role'] === 'system') return new SystemMessage({ content, id });
    if (m['role'] === 'user') return new HumanMessage({ content, id });
    if (m['role'] === 'tool') return new ToolMessage({ content, id, tool_call_id: m['tool_call_id'] as string });
    const calls =
      (m['tool_calls'] as { id: string; function: { name: string; arguments: string } }[] | undefined) ?? [];
    return new AIMessage({
      content,
      id,
      tool_calls: calls.map((c) => ({ id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) })),
    });
  });
}

describe('pkg-langchain-trim-messages (@langchain/core trimMessages, as shipped)', () => {
  it('declares the package, its version, the options it passes and the reimplementation it shadows', () => {
    expect(lcDefinition.parameters).toMatchObject({
      strategy: 'last',
      allowPartial: false,
      includeSystem: false,
      maxTokens: 'budgetTokens',
      package: '@langchain/core@1.4.0',
      format: 'openai-chat',
    });
    expect(lcDefinition.shadows).toBe('langchain-trim-messages');
    expect(TRIM_OPTIONS).toEqual({ strategy: 'last', allowPartial: false, includeSystem: false });
  });

  it("decides, item by item, exactly what the package's own output keeps, at several budgets", async () => {
    const condition = getCondition(PKG_LANGCHAIN_TRIM_MESSAGES)!;
    let removed = 0;
    let keptSome = 0;
    for (const base of VIEWS) {
      for (const share of [1, 0.5, 0.1]) {
        const view = tight(base, share);
        const rendered = FORMATS['openai-chat'].render(view);
        const weights = messageTokens(rendered, view);
        const direct = await trimMessages(toLangChain(rendered.messages), {
          ...TRIM_OPTIONS,
          maxTokens: view.prunePoint.budgetTokens,
          tokenCounter: (list: BaseMessage[]) => list.reduce((s, m) => s + weights[Number(m.id)]!, 0),
        });
        const keptMessages = new Set(direct.map((m) => Number(m.id)));
        const out = condition.decide(view);
        rendered.units.forEach((u, i) => {
          const e = out.find((d) => d.itemId === rendered.itemOfUnit[i])!;
          expect(e.verdict).toBe(keptMessages.has(u.message) ? 'keep' : 'eligible');
        });
        removed += out.filter((e) => e.verdict === 'eligible').length;
        keptSome += out.some((e) => e.verdict === 'keep') ? 1 : 0;
        if (share === 1) expect(out.every((e) => e.verdict === 'keep')).toBe(true);
      }
    }
    expect(removed).toBeGreaterThan(0);
    expect(keptSome).toBeGreaterThan(0);
  });

  it('counts a message as the tokens of the items it renders, as the view counts them', () => {
    const view = VIEWS[0]!;
    const rendered = FORMATS['openai-chat'].render(view);
    expect(messageTokens(rendered, view).reduce((a, b) => a + b, 0)).toBe(view.contextTokens);
  });
});
