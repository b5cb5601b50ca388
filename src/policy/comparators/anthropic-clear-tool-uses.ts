// Comparator: Anthropic's server-side context editing, strategy `clear_tool_uses_20250919`. Once the prompt exceeds
// the trigger, the oldest tool results are cleared in chronological order and replaced by a placeholder, keeping the
// most recent `keep` tool uses; the tool calls (their inputs) stay unless clear_tool_inputs is set.
//
// Facts verified at source (December 2026):
// - docs.claude.com/en/docs/build-with-claude/context-editing (the "Configuration options" table): trigger defaults
//   to 100,000 input tokens ("once the prompt exceeds this threshold"), keep to 3 tool uses, clear_at_least to none,
//   exclude_tools to none, clear_tool_inputs to false; "the API automatically clears the oldest tool results in
//   chronological order, replacing them with placeholder text". The API does not publish that text.
// - LangChain's mirror, langchain (JS) dist/agents/middleware/contextEditing.js (langchain@1.2.13 on unpkg) and the
//   Python reference (langchain_v1 agents/middleware/context_editing.py @ 8fec4e7): DEFAULT_TOOL_PLACEHOLDER
//   "[cleared]", trigger 100,000, keep 3, clear_at_least 0, clear_tool_inputs false, exclude_tools ().
// Placeholder: "[cleared]", LangChain's, because it is the only published text for this behaviour (the API's own
// text is unpublished); a marker run (--placeholders marker) is unaffected either way.
// clear_at_least 0 means any clearing is enough; a positive value clears nothing when the old results hold fewer
// tokens (the docs: the minimum to clear "each time" the strategy applies).
// Here a tool use is a tool-result item and its size is the prune point's token count of the item; the prompt's size
// is the context's (view.contextTokens). No protection is consulted: the API sees none.
import type { PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { defineCondition } from '../definition.js';
import { ASSUMED_WINDOW, scaledName, scaledTokens, scaledVariant, shareOf } from './scale.js';
import { olderToolResults } from './older-tool-results.js';

export const ANTHROPIC_CLEAR_TOOL_USES = 'anthropic-clear-tool-uses';
export const ANTHROPIC_CLEAR_TOOL_USES_SCALED = scaledName(ANTHROPIC_CLEAR_TOOL_USES);

/** The published defaults of clear_tool_uses_20250919. */
export const CLEAR_TOOL_USES_DEFAULTS = {
  triggerTokens: 100_000,
  keep: 3,
  clearAtLeast: 0,
  excludeTools: [] as readonly string[],
  clearToolInputs: false,
} as const;

export const CLEARED_PLACEHOLDER = '[cleared]';

const REFERENCE =
  'Anthropic context editing, clear_tool_uses_20250919 (docs.claude.com/en/docs/build-with-claude/context-editing, ' +
  'configuration options); placeholder from LangChain ClearToolUsesEdit (DEFAULT_TOOL_PLACEHOLDER "[cleared]")';

export interface ClearToolUsesParameters {
  readonly keep?: number;
  readonly excludeTools?: readonly string[];
  /** Published thresholds as they ship (false) or as shares of a 200,000-token window applied to budgetTokens. */
  readonly scaled?: boolean;
}

export function clearToolUses(parameters: ClearToolUsesParameters = {}): Condition {
  const keep = parameters.keep ?? CLEAR_TOOL_USES_DEFAULTS.keep;
  if (!Number.isInteger(keep) || keep < 0) throw new Error(`keep must be a non-negative integer, got ${keep}`);
  const exclude = new Set(parameters.excludeTools ?? CLEAR_TOOL_USES_DEFAULTS.excludeTools);
  const scaled = parameters.scaled ?? false;
  const name = scaled ? ANTHROPIC_CLEAR_TOOL_USES_SCALED : ANTHROPIC_CLEAR_TOOL_USES;
  const verdict = comparatorVerdict(name);
  const thresholds = (view: PolicyView) => {
    const { triggerTokens, clearAtLeast } = CLEAR_TOOL_USES_DEFAULTS;
    const budget = view.prunePoint.budgetTokens;
    return scaled
      ? { trigger: scaledTokens(triggerTokens, budget), atLeast: scaledTokens(clearAtLeast, budget) }
      : { trigger: triggerTokens, atLeast: clearAtLeast };
  };
  return {
    name,
    layer: 'comparator',
    rung: null,
    version: '1.0.0',
    description: describe(scaled),
    upperRisk: false,
    consultsObligations: false,
    parameters: parametersOf(scaled, keep, [...exclude]),
    reference: REFERENCE,
    decide(view: PolicyView): Eligibility[] {
      const { trigger, atLeast } = thresholds(view);
      if (view.contextTokens <= trigger)
        return view.items.map((i) =>
          verdict(i.id, 'keep', `the prompt (${view.contextTokens} tokens) does not exceed the trigger of ${trigger}`),
        );
      const cleared = olderToolResults(view.items, keep, (i) => !exclude.has(i.tool?.name ?? ''));
      const freed = view.items.filter((i) => cleared.has(i.id)).reduce((sum, i) => sum + i.tokens, 0);
      if (freed < atLeast || cleared.size === 0)
        return view.items.map((i) =>
          verdict(i.id, 'keep', `clearing would free ${freed} tokens, under clear_at_least ${atLeast}, or nothing`),
        );
      return view.items.map((item) => {
        if (item.kind !== 'tool-result') return verdict(item.id, 'keep', 'not a tool result (tool inputs are kept)');
        if (!cleared.has(item.id))
          return exclude.has(item.tool?.name ?? '')
            ? verdict(item.id, 'keep', `tool ${item.tool?.name ?? ''} is excluded`)
            : verdict(item.id, 'keep', `one of the ${keep} most recent tool uses`);
        return verdict(
          item.id,
          'eligible',
          `the prompt (${view.contextTokens} tokens) exceeds the trigger of ${trigger}; an older tool result than the ${keep} kept`,
          CLEARED_PLACEHOLDER,
        );
      });
    },
  };
}

function describe(scaled: boolean): string {
  const trigger = scaled
    ? `${String(shareOf(CLEAR_TOOL_USES_DEFAULTS.triggerTokens))} x budgetTokens`
    : `${String(CLEAR_TOOL_USES_DEFAULTS.triggerTokens)} tokens`;
  return `Anthropic clear_tool_uses_20250919: once the prompt exceeds ${trigger}, clear every tool result but the ${String(CLEAR_TOOL_USES_DEFAULTS.keep)} most recent, oldest first, with "[cleared]"; tool inputs stay`;
}

function parametersOf(scaled: boolean, keep: number, exclude: readonly string[]) {
  const { triggerTokens, clearAtLeast, clearToolInputs } = CLEAR_TOOL_USES_DEFAULTS;
  return {
    ...(scaled
      ? {
          triggerShare: shareOf(triggerTokens),
          clearAtLeastShare: shareOf(clearAtLeast),
          assumedWindow: ASSUMED_WINDOW,
        }
      : { triggerTokens, clearAtLeast }),
    keep,
    excludeTools: exclude.join(','),
    clearToolInputs,
  };
}

export const definition = defineCondition({
  name: ANTHROPIC_CLEAR_TOOL_USES,
  layer: 'comparator',
  rung: null,
  version: '1.0.0',
  description: describe(false),
  upperRisk: false,
  consultsObligations: false,
  parameters: parametersOf(false, CLEAR_TOOL_USES_DEFAULTS.keep, []),
  reference: REFERENCE,
  build: () => clearToolUses(),
});

export const scaledDefinition = scaledVariant(definition, {
  description: describe(true),
  parameters: parametersOf(true, CLEAR_TOOL_USES_DEFAULTS.keep, []),
  build: () => clearToolUses({ scaled: true }),
});
