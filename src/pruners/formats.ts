// The message formats a pruner can be written against, by name.
import { aiSdk } from './ai-sdk.js';
import { anthropicMessages } from './anthropic-messages.js';
import { openaiChat } from './openai-chat.js';
import type { MessageFormat, PrunerFormat } from './types.js';

export const FORMATS: Readonly<Record<PrunerFormat, MessageFormat>> = {
  'openai-chat': openaiChat,
  'anthropic-messages': anthropicMessages,
  'ai-sdk': aiSdk,
};
