// Comparator: a reimplementation of LangChain's trimMessages with strategy "last": keep the longest run of the most
// recent messages whose tokens fit maxTokens, drop everything before it. Every other option at its default.
//
// Facts verified against @langchain/core 1.4.0 (the installed package, dist/messages/transformers.js; the source is
// langchain-ai/langchainjs langchain-core/src/messages/transformers.ts):
// - _trimMessagesHelper: `strategy = "last", allowPartial = false, endOn, startOn, includeSystem = false`;
//   maxTokens and tokenCounter have no default (the caller must give both);
// - _lastMaxTokens reverses the messages and _firstMaxTokens keeps the longest prefix of the reversed list (the
//   longest suffix) whose count is at most maxTokens (`tokenCounter(...) <= maxTokens`, tried from the whole list
//   down to one message); when not even the newest message fits, nothing is kept; with allowPartial false no message
//   is cut, with startOn and endOn unset nothing else is dropped, and with includeSystem false a leading system
//   message gets no special treatment;
// - the unit it keeps or drops is a message, whole: tokenCounter is handed lists of messages, never parts of one.
// Parameters used, the same as the package-backed `pkg-langchain-trim-messages`: maxTokens = the prune point's
// budgetTokens, every option at its default. The messages are the ones that row hands the package, the view rendered
// as OpenAI chat messages (chatMessagePieces, src/pruners/openai-chat.ts): a run of consecutive tool calls is one
// assistant message, every other item (a text, a tool result, a call recorded without its invocation) a message of
// its own; a message weighs the prune point's tokens of the items it holds. So an item goes exactly when its
// message does: a cut that falls inside a run of parallel calls drops the whole run (1.1.0; 1.0.0 weighed and cut
// item by item), and a call's results are messages of their own, kept or dropped apart from it, as the package
// does. The budget already is the prune point's, so there is no scaled variant. A trimmed message is dropped whole:
// there is no placeholder.
import type { PolicyView } from '../../fixture/view.js';
import { comparatorVerdict } from '../eligibility.js';
import type { Condition, Eligibility } from '../types.js';
import { conditionOf, defineCondition } from '../definition.js';
import { chatMessagePieces } from '../../pruners/openai-chat.js';

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
  'LangChain trimMessages (strategy "last", maxTokens = budgetTokens, defaults otherwise): keep the longest run of the newest whole messages (a run of parallel tool calls is one) that fits, drop the rest';

export function langchainTrimMessages(): Condition {
  const verdict = comparatorVerdict(LANGCHAIN_TRIM_MESSAGES);
  return conditionOf(definition, (view: PolicyView): Eligibility[] => {
    const budget = view.prunePoint.budgetTokens;
    const tokens = new Map(view.items.map((item) => [item.id, item.tokens]));
    const messages = chatMessagePieces(view);
    const weights = messages.map((m) => m.reduce((sum, piece) => sum + tokens.get(piece.itemId)!, 0));
    const messageOf = new Map<string, number>();
    messages.forEach((m, index) => {
      for (const piece of m) messageOf.set(piece.itemId, index);
    });
    // The first message of the longest suffix that fits: weights are non-negative, so the running sum only grows,
    // and the first message that does not fit ends the run as the package's longest fitting prefix does.
    let start = messages.length;
    let kept = 0;
    while (start > 0 && kept + weights[start - 1]! <= budget) {
      start -= 1;
      kept += weights[start]!;
    }
    return view.items.map((item) => {
      const index = messageOf.get(item.id)!;
      const size = messages[index]!.length;
      const whose =
        size > 1
          ? `its message (${index + 1} of ${messages.length}, ${size} tool calls)`
          : `its message (${index + 1} of ${messages.length})`;
      return index >= start
        ? verdict(
            item.id,
            'keep',
            `${whose} is within the newest ${kept} tokens of whole messages that fit maxTokens ${budget}`,
          )
        : verdict(
            item.id,
            'eligible',
            `${whose} is before the newest run of whole messages that fits maxTokens ${budget}`,
          );
    });
  });
}

export const definition = defineCondition({
  name: LANGCHAIN_TRIM_MESSAGES,
  layer: 'comparator',
  rung: null,
  version: '1.1.0',
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: false,
  parameters: { ...TRIM_MESSAGES_DEFAULTS },
  reference: REFERENCE,
  build: () => langchainTrimMessages(),
});
