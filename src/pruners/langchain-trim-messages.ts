// LangChain's trimMessages (@langchain/core, MIT), run as shipped on the openai-chat rendering turned into LangChain
// messages. It is async (it returns a Promise, awaiting its token counter), so it runs in a worker thread the
// synchronous decide waits on (blocking.ts). Its token counter is the harness's: a message counts the tokens of the
// items it renders, as the view counts them, so the budget it trims to is the prune point's in the harness's units.
//
// Options: strategy 'last' and maxTokens = the prune point's budgetTokens; everything else at trimMessages' own
// defaults (allowPartial false, includeSystem false, no startOn or endOn), verified in
// langchain-ai/langchainjs langchain-core/src/messages/transformers.ts (shipped as
// node_modules/@langchain/core/dist/messages/transformers.js, 1.4.0: `_trimMessagesHelper`).
import { createRequire } from 'node:module';
import { failure } from '../errors.js';
import { siblingModule } from '../files/sibling-module.js';
import type { PolicyView } from '../fixture/view.js';
import { BlockingWorker, workerCode } from './blocking.js';
import type { TrimRequest } from './langchain-worker.js';
import type { Rendered } from './types.js';

export const LANGCHAIN_VERSION = (createRequire(import.meta.url)('@langchain/core/package.json') as { version: string })
  .version;

export const TRIM_OPTIONS = { strategy: 'last', allowPartial: false, includeSystem: false } as const;

/** Long enough for the package to load on a loaded machine; a trim itself takes milliseconds. */
const TIMEOUT_MS = 120_000;

// Made here, started on the first trim any thread of the process asks for (blocking.ts).
const worker = new BlockingWorker(
  'langchain-trim-messages',
  () => workerCode(siblingModule(import.meta.url, 'langchain-worker')),
  { resolveFrom: import.meta.url },
  TIMEOUT_MS,
);

/** Each message's weight: the tokens of the items it renders, as the view counts them. */
export function messageTokens(rendered: Rendered, view: PolicyView): number[] {
  const tokens = new Map(view.items.map((item) => [item.id, item.tokens]));
  const out = rendered.messages.map(() => 0);
  rendered.units.forEach((unit, i) => {
    out[unit.message] = out[unit.message]! + (tokens.get(rendered.itemOfUnit[i]!) ?? 0);
  });
  return out;
}

/** trimMessages' output for the prune point's openai-chat rendering, trimmed to its budget. */
export function runTrimMessages(condition: string, rendered: Rendered, view: PolicyView): unknown[] {
  const request: TrimRequest = {
    messages: rendered.messages as TrimRequest['messages'],
    tokens: messageTokens(rendered, view),
    options: { ...TRIM_OPTIONS, maxTokens: view.prunePoint.budgetTokens },
  };
  try {
    return worker.call(request) as unknown[];
  } catch (err) {
    throw failure('PL_PRUNER_PACKAGE', condition, (err as Error).message);
  }
}
