// Comparator: LangChain's trimMessages, the real package run as shipped (src/pruners/langchain-trim-messages.ts says
// which options and how an async function answers a synchronous decide) on the prune point rendered as OpenAI chat
// messages turned into LangChain's, its output mapped back to items. It shadows the reimplementation
// `langchain-trim-messages`: the report counts, per fixture, the items on which the two decide differently.
import { LANGCHAIN_VERSION, runTrimMessages, TRIM_OPTIONS } from '../../pruners/langchain-trim-messages.js';
import { defineCondition } from '../definition.js';
import { prunerCondition } from '../pruner.js';

export const PKG_LANGCHAIN_TRIM_MESSAGES = 'pkg-langchain-trim-messages';

const DESCRIPTION =
  "LangChain's trimMessages run as shipped: keep the last whole messages that fit budgetTokens (harness token counts), drop the rest";
const REFERENCE = `npm @langchain/core@${LANGCHAIN_VERSION} (MIT), trimMessages: langchain-ai/langchainjs langchain-core/src/messages/transformers.ts; strategy last, maxTokens = budgetTokens, its other options at their defaults`;
const PARAMETERS = { ...TRIM_OPTIONS, maxTokens: 'budgetTokens', package: `@langchain/core@${LANGCHAIN_VERSION}` };

export const definition = defineCondition({
  name: PKG_LANGCHAIN_TRIM_MESSAGES,
  layer: 'comparator',
  rung: null,
  version: '1.0.0',
  description: DESCRIPTION,
  upperRisk: false,
  consultsObligations: false,
  parameters: { ...PARAMETERS, format: 'openai-chat' },
  reference: REFERENCE,
  shadows: 'langchain-trim-messages',
  build: () =>
    prunerCondition({
      name: PKG_LANGCHAIN_TRIM_MESSAGES,
      version: '1.0.0',
      description: DESCRIPTION,
      reference: REFERENCE,
      parameters: PARAMETERS,
      format: 'openai-chat',
      prune: (rendered, view) => runTrimMessages(PKG_LANGCHAIN_TRIM_MESSAGES, rendered, view),
    }),
});
