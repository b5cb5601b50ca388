// The Vercel AI SDK's pruneMessages (package `ai`, Apache-2.0), run as shipped on the ai-sdk rendering. It is
// synchronous, so it runs in-process.
//
// Its documented defaults (reasoning 'none', toolCalls [], emptyMessages 'remove') prune nothing but empty messages,
// so they would measure nothing. The options passed are those of the one complete usage the reference page shows, a
// chat route (node_modules/ai/docs/07-reference/02-ai-sdk-ui/32-prune-messages.mdx, ai 6.0.333): reasoning
// 'before-last-message', toolCalls 'before-last-2-messages', emptyMessages 'remove'. Source:
// vercel/ai packages/ai/src/generate-text/prune-messages.ts (shipped as node_modules/ai/src/generate-text/).
import { createRequire } from 'node:module';
import { type ModelMessage, pruneMessages } from 'ai';

export const AI_VERSION = (createRequire(import.meta.url)('ai/package.json') as { version: string }).version;

export const AI_PRUNE_OPTIONS = {
  reasoning: 'before-last-message',
  toolCalls: 'before-last-2-messages',
  emptyMessages: 'remove',
} as const;

export function runPruneMessages(messages: readonly unknown[]): unknown[] {
  // The rendering is plain data in ModelMessage's shape (src/pruners/ai-sdk.ts); the package reads nothing else.
  return pruneMessages({ messages: [...messages] as ModelMessage[], ...AI_PRUNE_OPTIONS });
}
