// Comparator: LangChain's trimMessages, the real package run as shipped (src/pruners/langchain-trim-messages.ts says
// which options and how an async function answers a synchronous decide) on the prune point rendered as OpenAI chat
// messages turned into LangChain's, its output mapped back to items. It shadows the reimplementation
// `langchain-trim-messages`: the report counts, per fixture, the items on which the two decide differently.
import { LANGCHAIN_VERSION, runTrimMessages, TRIM_OPTIONS } from '../../pruners/langchain-trim-messages.js';
import { definePruner } from '../pruner.js';

export const PKG_LANGCHAIN_TRIM_MESSAGES = 'pkg-langchain-trim-messages';

export const definition = definePruner({
  name: PKG_LANGCHAIN_TRIM_MESSAGES,
  version: '1.0.0',
  description:
    "LangChain's trimMessages run as shipped: keep the last whole messages that fit budgetTokens (harness token counts), drop the rest",
  reference: `npm @langchain/core@${LANGCHAIN_VERSION} (MIT), trimMessages: langchain-ai/langchainjs langchain-core/src/messages/transformers.ts; strategy last, maxTokens = budgetTokens, its other options at their defaults`,
  parameters: { ...TRIM_OPTIONS, maxTokens: 'budgetTokens', package: `@langchain/core@${LANGCHAIN_VERSION}` },
  format: 'openai-chat',
  shadows: 'langchain-trim-messages',
  prune: (rendered, view) => runTrimMessages(PKG_LANGCHAIN_TRIM_MESSAGES, rendered, view),
});
