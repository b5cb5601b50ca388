// Comparator: the Vercel AI SDK's pruneMessages, the real package run as shipped (src/pruners/ai-prune-messages.ts
// says which options and why) on the prune point rendered as ModelMessages (src/pruners/ai-sdk.ts), its output
// mapped back to items. It has no reimplementation here to shadow.
import { AI_PRUNE_OPTIONS, AI_VERSION, runPruneMessages } from '../../pruners/ai-prune-messages.js';
import { definePruner } from '../pruner.js';

export const PKG_AI_PRUNE_MESSAGES = 'pkg-ai-prune-messages';

export const definition = definePruner({
  name: PKG_AI_PRUNE_MESSAGES,
  version: '1.0.0',
  description:
    "the Vercel AI SDK's pruneMessages run as shipped: reasoning before the last message, tool calls and results before the last 2 messages, then empty messages, removed",
  reference: `npm ai@${AI_VERSION} (Apache-2.0), pruneMessages: vercel/ai packages/ai/src/generate-text/prune-messages.ts; options of the chat-route usage on its reference page (docs/07-reference/02-ai-sdk-ui/32-prune-messages.mdx), its defaults pruning nothing`,
  parameters: { ...AI_PRUNE_OPTIONS, package: `ai@${AI_VERSION}` },
  format: 'ai-sdk',
  prune: (rendered) => runPruneMessages(rendered.messages),
});
