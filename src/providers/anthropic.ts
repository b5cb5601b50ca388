// The Anthropic messages backend through the official SDK; ANTHROPIC_BASE_URL points it elsewhere. The API takes
// neither a seed nor (any longer) a temperature, so requests for it carry null for both.
import Anthropic from '@anthropic-ai/sdk';
import { sdkCall, sdkOptions } from './sdk.js';
import { ProviderCallError, type ChatRequest, type ChatResponse, type ClientConfig, type ModelClient } from './types.js';

export function anthropicClient(config: ClientConfig): ModelClient {
  const client = new Anthropic(sdkOptions(config));
  return {
    provider: 'anthropic',
    model: config.model,
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const message = await sdkCall(Anthropic, config, () => client.messages.create({
        model: config.model,
        max_tokens: request.maxTokens,
        system: request.system,
        messages: [{ role: 'user', content: request.user }],
      }));
      const usage = message?.usage;
      if (!Array.isArray(message?.content) || !usage || typeof usage.input_tokens !== 'number' || typeof usage.output_tokens !== 'number') {
        throw new ProviderCallError('malformed', 'the response has no content blocks or no usage fields');
      }
      const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      return {
        text,
        usage: {
          input: usage.input_tokens,
          output: usage.output_tokens,
          cacheRead: usage.cache_read_input_tokens ?? 0,
          cacheWrite: usage.cache_creation_input_tokens ?? 0,
        },
        model: typeof message.model === 'string' ? message.model : config.model,
      };
    },
  };
}
