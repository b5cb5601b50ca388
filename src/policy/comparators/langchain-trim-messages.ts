// Comparator: a reimplementation of LangChain's trimMessages with strategy "last": keep the longest run of the most
// recent messages whose tokens fit maxTokens, drop everything before it. Every other option at its default.
//
// Facts verified against @langchain/core 1.4.0 (the installed package, dist/messages/transformers.js; the source is
// langchain-ai/langchainjs langchain-core/src/messages/transformers.ts):
// - _trimMessagesHelper: `strategy = "last", allowPartial = false, endOn, startOn, includeSystem = false`;
//   maxTokens and tokenCounter have no default (the caller must give both);
// - _lastMaxTokens reverses the messages and keeps the longest prefix of the reversed list (the longest suffix) whose
//   count is at most maxTokens (`tokenCounter(...) <= maxTokens`); when not even the newest message fits, nothing is
//   kept; with startOn and endOn unset nothing else is cut, and with includeSystem false a leading system message
//   gets no special treatment.
// Parameters used, the same as the package-backed `pkg-langchain-trim-messages`: maxTokens = the prune point's
// budgetTokens, every option at its default. A message is an item; its tokens are the prune point's token count of
// the item. The budget already is the prune point's, so there is no scaled variant. A trimmed message is dropped
// whole: there is no placeholder.
import type { PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { conditionOf, defineCondition } from '../definition.js';

export const LANGCHAIN_TRIM_MESSAGES = 'langchain-trim-messages';

/** trimMessages' defaults for the options this reimplementation reproduces. */
export const TRIM_MESSAGES_DEFAULTS = {
  strategy: 'last',
  allowPartial: false,
  includeSystem: false,
  startOn: 'none',
  endOn: 'none',
  maxTokens: 'budgetTokens',
} as const;

const REFERENCE =
  'LangChain trimMessages (langchain-ai/langchainjs langchain-core/src/messages/transformers.ts, @langchain/core 1.4.0): ' +
  'strategy "last", maxTokens = budgetTokens, allowPartial false, includeSystem false, startOn/endOn unset';

const DESCRIPTION =
  'LangChain trimMessages (strategy "last", maxTokens = budgetTokens, defaults otherwise): keep the longest run of the newest items that fits, drop the rest';

export function langchainTrimMessages(): Condition {
  const verdict = comparatorVerdict(LANGCHAIN_TRIM_MESSAGES);
  return conditionOf(definition, (view: PolicyView): Eligibility[] => {
    const budget = view.prunePoint.budgetTokens;
    // The first index of the longest suffix that fits: tokens are non-negative, so the running sum only grows.
    let start = view.items.length;
    let kept = 0;
    while (start > 0 && kept + view.items[start - 1]!.tokens <= budget) {
      start -= 1;
      kept += view.items[start]!.tokens;
    }
    return view.items.map((item, i) =>
      i >= start
        ? verdict(item.id, 'keep', `within the newest ${kept} tokens that fit maxTokens ${budget}`)
        : verdict(item.id, 'eligible', `before the newest run of messages that fits maxTokens ${budget}`),
    );
  });
}

export const definition = defineCondition({
  name: LANGCHAIN_TRIM_MESSAGES,
  layer: 'comparator',
  rung: null,
  version: '1.0.0',
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: false,
  parameters: { ...TRIM_MESSAGES_DEFAULTS },
  reference: REFERENCE,
  build: () => langchainTrimMessages(),
});
